/**
 * Context Runtime for LangChain.js: a retriever whose documents the runtime plans, and a tool that
 * runs a goal — over the runtime in this process or a server's HTTP API v1.
 */
export { ContextRuntimeRetriever, documentOf, formatCitedDocuments, type ContextRuntimeRetrieverInput, type PassageMetadata } from './context-runtime-retriever';
export { createRunGoalTool, describeRun, RUN_GOAL_TOOL_NAME, type RunGoalToolOptions } from './run-goal-tool';
export { inProcessRuntimePort } from './in-process-runtime-port';
export { httpRuntimePort, type HttpRuntimeOptions } from './http-runtime-port';
export type { BuiltContext, CitedPassage, ContextRequest, ContextRuntimePort, GoalRequest, RunAnswer, RunCitation } from './context-runtime-port';
