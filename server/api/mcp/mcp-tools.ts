/**
 * The MCP tools, one entry each: name, the role it needs (the same as the tRPC procedure and the
 * HTTP API v1 route that make the same call), its zod input schema and its one runtime call with
 * the caller's principal — so source permissions are the runtime's own (principal-access.ts).
 * The goal schemas are the HTTP API v1's (v1-schemas.ts): one description of a goal request.
 */
import { z } from 'zod';
import type { Role } from '../../auth/roles';
import type { Principal } from '../../runtime/types';
import type { RuntimePort } from '../runtime-port';
import { buildContextRequest, explainRequest, goalRequest } from '../v1/v1-schemas';

export interface McpToolCall<Input> {
  readonly runtime: RuntimePort;
  readonly principal: Principal;
  readonly input: Input;
}

export interface McpTool<Schema extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly role: Role;
  readonly input: Schema;
  /** True when the tool changes nothing (explain without analyze, simulate, build_context). */
  readonly readOnly: boolean;
  /** Decides as a person (an approval): refused to a caller that names none (McpServerContext.impersonal). */
  readonly asPerson?: boolean;
  readonly call: (args: McpToolCall<z.output<Schema>>) => Promise<unknown>;
}

const defineTool = <Schema extends z.ZodObject>(tool: McpTool<Schema>): McpTool => Object.freeze(tool) as unknown as McpTool;

const approveRequest = z.strictObject({
  runId: z.string().min(1).max(200).describe('The run waiting at an approval gate (a run resource, or the `run` tool answer).'),
  nodeId: z.string().min(1).max(200).describe('The gate node: pendingApproval.nodeId of the run.'),
  decision: z.enum(['approved', 'rejected']),
  comment: z.string().max(2000).optional().describe('Why: kept in the approval log.'),
});

export const MCP_TOOLS: readonly McpTool[] = Object.freeze([
  defineTool({
    name: 'run',
    title: 'Run a goal',
    description: 'Plan and run a goal over the sources you may read; answers with the cited answer, caveats and the plan it ran. A plan with a write pauses at an approval gate (status awaiting_approval). Status unverified: the answer failed its required verification on every attempt (the reasons are in verification and caveats) and must not be passed on as verified.',
    role: 'operator',
    input: goalRequest,
    readOnly: false,
    call: ({ runtime, principal, input }) => runtime.run({ ...input, principal }),
  }),
  defineTool({
    name: 'explain',
    title: 'EXPLAIN a goal',
    description: 'The plan the runtime would run for the goal: graph, estimates per node, and the candidates it rejected. `analyze: true` runs it and overlays actuals.',
    role: 'operator',
    input: explainRequest,
    readOnly: false,
    call: ({ runtime, principal, input: { analyze, ...goal } }) => runtime.explain({ ...goal, principal }, { analyze: analyze ?? false }),
  }),
  defineTool({
    name: 'simulate',
    title: 'Simulate a goal',
    description: 'Expected cost, latency, tokens and confidence of the plan, as intervals, without running it.',
    role: 'operator',
    input: goalRequest,
    readOnly: true,
    call: ({ runtime, principal, input }) => runtime.simulate({ ...input, principal }),
  }),
  defineTool({
    name: 'build_context',
    title: 'Build context for a goal',
    description: "Ranked, cited passages for a goal within a token budget, for an agent that brings its own model: the plan's retrieval and assembly, no model call, no run stored. Cite passages by their `ref`.",
    role: 'operator',
    input: buildContextRequest,
    readOnly: true,
    call: ({ runtime, principal, input: { tokenBudget, ...goal } }) => runtime.contextFor({ ...goal, principal }, tokenBudget === undefined ? {} : { tokenBudget }),
  }),
  defineTool({
    name: 'approve',
    title: 'Decide an approval gate',
    description: 'Approve or reject a run paused at an approval gate, as yourself: needs the approver role, and nobody approves a run they started.',
    role: 'approver',
    input: approveRequest,
    readOnly: false,
    asPerson: true,
    call: ({ runtime, principal, input }) => runtime.approve(input.runId, input.nodeId, input.decision, principal, input.comment ?? ''),
  }),
]);
