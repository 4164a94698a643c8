import { describe, expect, it } from 'vitest';
import { createNodeExecutor } from '../execution/node-executors';
import type { ReasonResult } from '../contracts/reasoner';
import type { VerifierPlugin } from '../contracts/verifier';
import type { RouterPlugin } from '../contracts/router';
import { createGraph, createNode } from './graph';
import { answerNodeOf, answerOutputsOf, type AssembledContext, contextNodeOf, findNodesByRole } from './node-outputs';

const reason = (id: string, input: string, purpose?: 'bridge') =>
  createNode('reason', { id, inputs: [input], strategy: 'decomposition', tier: 'local', localOnly: true, requireCitations: true, maxOutputTokens: 100, ...(purpose ? { purpose } : {}) });
const assemble = (id: string, input: string) => createNode('assemble', { id, inputs: [input], tokenBudget: 1000, finalK: 4 });
const compress = (id: string, input: string) => createNode('compress', { id, inputs: [input], method: 'none' });

/** Two hops with ids nothing in the facade knows: hop-1 bridges, final answers. */
const graph = createGraph([
  createNode('retrieve', { id: 'first', inputs: [], method: 'bm25', sources: ['docs'], sourceKinds: 'all', k: 5 }),
  compress('squeeze-1', 'first'),
  assemble('pack-1', 'squeeze-1'),
  reason('hop-1', 'pack-1', 'bridge'),
  createNode('retrieve', { id: 'second', inputs: ['hop-1'], method: 'bm25', sources: ['docs'], sourceKinds: 'all', k: 5, bridgeFrom: 'hop-1' }),
  compress('squeeze-2', 'second'),
  assemble('pack-2', 'squeeze-2'),
  reason('final', 'pack-2'),
  createNode('verify', { id: 'check', inputs: ['final', 'pack-2'], method: 'citation' }),
]);

const answered = (answer: string): ReasonResult => ({ answer, citations: [], modelCalls: [] });
const context = (text: string): AssembledContext => ({ items: [{ ref: 1, text, tokens: 1, compressed: false, hit: { chunkId: text } as never }], tokens: 1, bySource: [], dropped: [], compressedTokensRemoved: 0 });

describe('nodes found by role, outputs typed by kind', () => {
  it('finds the answering reason node and its context whatever their ids, never the bridge hop', () => {
    expect(findNodesByRole(graph, 'reason').map((node) => node.id)).toEqual(['hop-1', 'final']);
    expect(answerNodeOf(graph)?.id).toBe('final');
    expect(contextNodeOf(graph, answerNodeOf(graph))?.id).toBe('pack-2');
    const outcomes = new Map<string, { output: unknown }>([
      ['hop-1', { output: answered('the bridge') }],
      ['pack-1', { output: context('first hop') }],
      ['final', { output: answered('the answer') }],
      ['pack-2', { output: context('second hop') }],
    ]);
    const outputs = answerOutputsOf(graph, outcomes);
    expect(outputs.reasoned?.answer).toBe('the answer');
    expect(outputs.context?.items[0].text).toBe('second hop');
    expect(outputs.verification).toBeUndefined();
  });

  it('a verify node reads the answering reason and assemble inputs by kind, not by the ids "reason" and "assemble"', async () => {
    const seen: string[] = [];
    const verifier: VerifierPlugin = {
      contract: 'verifier/v1',
      method: 'citation',
      confidencePrior: 0.9,
      verify: (input) => {
        seen.push(`${input.answer} | ${input.context.map((item) => item.text).join(',')}`);
        return { method: 'citation', passed: true, confidence: 1, checks: [] };
      },
    };
    const execute = createNodeExecutor({
      goal: 'g', identifiers: [], entities: [], retrievers: new Map(), router: {} as RouterPlugin, reasoners: new Map(), compressions: new Map(),
      verifiers: new Map([['citation', verifier]]), countTokens: () => 1, modelTimeoutMs: 1000, graph,
    });
    const verify = graph.nodes.find((node) => node.id === 'check')!;
    await execute(verify, { attempt: 1, inputs: new Map<string, unknown>([['final', answered('the answer')], ['pack-2', context('second hop')]]), signal: new AbortController().signal });
    expect(seen).toEqual(['the answer | second hop']);
    await expect(execute(verify, { attempt: 1, inputs: new Map<string, unknown>([['final', answered('x')]]), signal: new AbortController().signal })).rejects.toThrow(/verify node check needs a completed reason and assemble input/);
  });
});
