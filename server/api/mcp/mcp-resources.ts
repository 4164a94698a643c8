/**
 * The MCP resources: runs (the list, and one run by id), a run's trace (its spans) and the sources
 * the caller may read. Each read is one runtime call with the caller's principal — the calls the
 * Traces pages and the HTTP API make — so a run over a source the caller may not read is not
 * listed, and reading it answers as a run that does not exist.
 */
import type { Principal } from '../../runtime/types';
import type { RuntimePort } from '../runtime-port';

export const MCP_URI_SCHEME = 'context-runtime';

/** Rows a list answers with: the Traces page's screenful, newest first. */
const LISTED_RUNS = 50;

export interface McpResourceRead {
  readonly runtime: RuntimePort;
  readonly principal: Principal;
  /** The template's variables ({ runId }); empty for a fixed URI. */
  readonly variables: Readonly<Record<string, string>>;
}

export interface McpListedResource {
  readonly uri: string;
  readonly name: string;
  readonly description?: string;
}

export interface McpResource {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** A fixed URI, or an RFC 6570 template with {runId}. */
  readonly uri: string;
  readonly template: boolean;
  /** A template's concrete resources, for resources/list; undefined = not enumerated. */
  readonly list?: (runtime: RuntimePort, principal: Principal) => Promise<readonly McpListedResource[]>;
  readonly read: (args: McpResourceRead) => Promise<unknown>;
}

const runUri = (runId: string) => `${MCP_URI_SCHEME}://runs/${encodeURIComponent(runId)}`;

/** One template variable, decoded; the SDK hands a repeated variable over as a list. */
export function variableOf(variables: Readonly<Record<string, string | readonly string[]>>, name: string): string {
  const value = variables[name];
  return decodeURIComponent(Array.isArray(value) ? (value[0] ?? '') : (value as string | undefined) ?? '');
}

export const MCP_RESOURCES: readonly McpResource[] = Object.freeze([
  {
    name: 'runs',
    title: 'Recent runs',
    description: `The ${LISTED_RUNS} most recent runs you may read: id, goal, status, cost, latency, who started it.`,
    uri: `${MCP_URI_SCHEME}://runs`,
    template: false,
    read: ({ runtime, principal }) => runtime.listRuns({ limit: LISTED_RUNS, principal }),
  },
  {
    name: 'run',
    title: 'A run',
    description: 'One run: status, answer, citations, caveats, a pending approval gate, and the plan it executed.',
    uri: `${MCP_URI_SCHEME}://runs/{runId}`,
    template: true,
    list: async (runtime, principal) =>
      (await runtime.listRuns({ limit: LISTED_RUNS, principal })).map((run) => ({ uri: runUri(run.id), name: `run ${run.id}`, description: `${run.status}: ${run.goal.slice(0, 120)}` })),
    read: async ({ runtime, principal, variables }) => (await runtime.getRun(variables.runId ?? '', principal)).run,
  },
  {
    name: 'trace',
    title: "A run's trace",
    description: "A run's spans (plan, each node, each model call) with timings, estimates and actuals, as the Traces waterfall shows them.",
    uri: `${MCP_URI_SCHEME}://traces/{runId}`,
    template: true,
    read: async ({ runtime, principal, variables }) => {
      const { run, spans } = await runtime.getRun(variables.runId ?? '', principal);
      return { runId: run.runId, status: run.status, planHash: run.explain.planHash, spans };
    },
  },
  {
    name: 'sources',
    title: 'Sources',
    description: 'The sources you may read: name, kind, current version, chunk count, whether stale or sensitive.',
    uri: `${MCP_URI_SCHEME}://sources`,
    template: false,
    read: ({ runtime, principal }) => runtime.sources(principal),
  },
]);
