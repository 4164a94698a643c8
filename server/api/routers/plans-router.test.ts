import { describe, expect, it, vi } from 'vitest';
import { ContextRuntimeError } from '../../runtime/errors';
import type { RunResult } from '../../runtime/explain/explain-types';
import type { Principal } from '../../runtime/types';
import { createCaller } from '../root-router';
import { fakeRuntimePort } from '../fake-runtime-port';
import type { RuntimePort } from '../runtime-port';

const GRAPH = { version: 1, nodes: [{ kind: 'merge', id: 'm', inputs: [] }] };

function callerWith(runEditedPlan: RuntimePort['runEditedPlan'], principal?: Principal) {
  return createCaller({ runtime: async () => fakeRuntimePort({ runEditedPlan }), principal });
}

describe('plans router', () => {
  it('passes goal, graph and the signed-in principal to the runtime', async () => {
    const result = { runId: 'run-9', status: 'completed' } as unknown as RunResult;
    const runEditedPlan = vi.fn(async () => result);
    const principal = { user: 'ada', roles: ['operator'] };
    await expect(callerWith(runEditedPlan, principal).plans.runEdited({ goal: 'why', constraints: { max_tokens: 900 }, graph: GRAPH })).resolves.toBe(result);
    expect(runEditedPlan).toHaveBeenCalledWith({ goal: 'why', constraints: { max_tokens: 900 }, principal }, GRAPH);
  });

  it('maps an invalid edit to BAD_REQUEST naming the node field', async () => {
    const runEditedPlan = async () => {
      throw new ContextRuntimeError('INVALID_GRAPH', 'node r: sources x are outside what the plan may read', { field: 'graph.nodes.r.sources' });
    };
    const error = await callerWith(runEditedPlan, { user: 'ada', roles: ['admin'] }).plans.runEdited({ goal: 'why', graph: GRAPH }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'BAD_REQUEST', message: 'node r: sources x are outside what the plan may read' });
  });

  it('refuses callers without a session (UNAUTHORIZED) and viewers (FORBIDDEN) before reaching the runtime', async () => {
    const runEditedPlan = vi.fn(async () => ({}) as RunResult);
    await expect(callerWith(runEditedPlan).plans.runEdited({ goal: 'why', graph: GRAPH })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(callerWith(runEditedPlan, { user: 'vic', roles: ['viewer'] }).plans.runEdited({ goal: 'why', graph: GRAPH })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(runEditedPlan).not.toHaveBeenCalled();
  });
});
