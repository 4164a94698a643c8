/**
 * A goal asking for a configured value reads the file diffs a commit's chunk had to cut (the demo's
 * initial import keeps ~25 tokens of each manifest): the plan adds a setting lookup, the context one
 * more item, and the answer quotes the manifest's setting. A caller who may not read the git source
 * gets neither the lookup nor the part. Real runtime, embedded PGlite, demo corpus.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetrieveNode } from '../ir/graph';
import type { AssembledContext } from '../ir/node-outputs';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';

const GIT_READER = 'git-reader';
const GOAL = 'What is the CPU limit of the checkout-api container?';
let fixture: RuntimeFixture;

beforeAll(async () => {
  fixture = await openRuntimeFixture({ config: { policy: { source_roles: { 'demo-git': [GIT_READER] } } } });
});

afterAll(async () => {
  await fixture?.close();
});

const lookupNodes = (nodes: readonly { kind: string }[]) => nodes.filter((node): node is RetrieveNode => node.kind === 'retrieve' && (node as RetrieveNode).lookupOnly === true);

/** The locators of what the run's context held (the assemble node's output). */
async function contextLocators(runId: string): Promise<string[]> {
  const record = await fixture.plugins.runStore.loadRun(runId);
  const assembled = record?.nodeOutcomes.get('assemble')?.output as AssembledContext | undefined;
  return (assembled?.items ?? []).map((item) => item.hit.locator ?? '');
}

describe('the setting lookup', () => {
  it('is planned for a configured value, one more context item, and its part answers', async () => {
    const result = await fixture.runtime.run({ goal: GOAL, principal: { user: 'ana', roles: ['operator', GIT_READER] } });
    const [lookup] = lookupNodes(result.explain.graph.nodes);
    expect(lookup).toMatchObject({ method: 'bm25', sources: ['demo-git'], lookupOnly: true });
    expect(lookup.note).toContain('configured value');
    const assemble = result.explain.graph.nodes.find((node) => node.id === 'assemble');
    expect(assemble).toMatchObject({ finalK: 9 });
    expect(await contextLocators(result.runId)).toContain('commit fcc3fb3 · k8s/checkout-api/deployment.yaml');
    expect(result.answer).toContain('limits: cpu: "1"');
  });

  it('reads nothing of a git source the caller may not read', async () => {
    const result = await fixture.runtime.run({ goal: GOAL, principal: { user: 'bo', roles: ['operator'] } });
    expect(lookupNodes(result.explain.graph.nodes)).toEqual([]);
    expect(result.explain.graph.nodes.find((node) => node.id === 'assemble')).toMatchObject({ finalK: 8 });
    expect((await contextLocators(result.runId)).filter((locator) => locator.includes(' · '))).toEqual([]);
  });

  it('searches for the setting a goal describes by what it does', async () => {
    const explain = await fixture.runtime.explain({ goal: 'How long does checkout-api wait on the payment provider before it gives up?', principal: { user: 'ana', roles: ['operator', GIT_READER] } });
    expect(lookupNodes(explain.graph.nodes).map((node) => node.queryExpansion)).toEqual([['timeout']]);
  });

  it('is not planned for a goal that asks why', async () => {
    const explain = await fixture.runtime.explain({ goal: 'Why was the checkout-api memory limit lowered?', principal: { user: 'ana', roles: ['operator', GIT_READER] } });
    expect(lookupNodes(explain.graph.nodes)).toEqual([]);
  });
});
