/**
 * A LangChain.js tool that hands a whole goal to Context Runtime: it plans, retrieves, calls its
 * own model tiers, checks citations, and answers. An agent gets the answer with its sources as the
 * tool's text, and the whole result (run id, citations, caveats, plan hash) as the artifact.
 */
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { refuseUnreadableSources, type ContextRuntimePort, type RunAnswer } from './context-runtime-port';

export const RUN_GOAL_TOOL_NAME = 'context_runtime_run';

const runGoalInput = z.object({
  goal: z.string().trim().min(1, 'goal: say what to find out').max(16_000).describe('What to find out, in plain language, e.g. "Explain why deployment checkout-api failed".'),
  sources: z.array(z.string().min(1)).min(1).optional().describe('Source names to draw from; omit for every source you may read.'),
});

export interface RunGoalToolOptions {
  readonly name?: string;
  /** Sources every call is limited to, unless the call names its own. */
  readonly sources?: readonly string[];
  readonly constraints?: Readonly<Record<string, unknown>>;
}

/** The answer as an agent reads it: the text, then each cited source by its marker. */
export function describeRun(run: RunAnswer): string {
  if (run.status === 'awaiting_approval') return `Run ${run.runId} is waiting for approval (${run.pendingApproval?.reason ?? 'a gate'}); nothing was answered yet.`;
  if (run.status !== 'completed' && run.status !== 'unverified') return `Run ${run.runId} ended ${run.status}${run.error ? `: ${run.error}` : ''}.`;
  const sources = run.citations.map((citation) => `[${citation.ref}] ${citation.sourceName}${citation.locator ? ` (${citation.locator})` : ''}`);
  const caveats = run.caveats.map((caveat) => `Caveat: ${caveat}`);
  // An unverified answer says so first: an agent must not pass it on as checked (its reasons are among the caveats).
  return [...(run.status === 'unverified' ? ['Not a verified answer (its required verification failed).'] : []), run.answer ?? '', ...(sources.length > 0 ? ['', 'Sources:', ...sources] : []), ...(caveats.length > 0 ? ['', ...caveats] : [])].join('\n');
}

export function createRunGoalTool(runtime: ContextRuntimePort, options: RunGoalToolOptions = {}) {
  return tool(
    async ({ goal, sources }): Promise<[string, RunAnswer]> => {
      const requested = sources ?? options.sources;
      const request = { goal, ...(requested ? { sources: requested } : {}), ...(options.constraints ? { constraints: options.constraints } : {}) };
      // Named sources are checked on the plan first: a refused call leaves no run behind.
      if (requested) refuseUnreadableSources(requested, (await runtime.plan(request)).rejectedSources);
      const run = await runtime.run(request);
      return [describeRun(run), run];
    },
    {
      name: options.name ?? RUN_GOAL_TOOL_NAME,
      description:
        'Answers a question from the organisation’s logs, events, git history and docs with cited evidence. ' +
        'Context Runtime plans the retrieval, calls its model and checks the citations; the answer cites sources as [1], [2], …',
      schema: runGoalInput,
      responseFormat: 'content_and_artifact',
    },
  );
}
