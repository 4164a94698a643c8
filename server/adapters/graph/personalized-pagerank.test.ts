import { describe, expect, it } from 'vitest';
import { createPassageGraph, type PassageEntityLink } from './passage-graph';
import { personalizedPageRank } from './personalized-pagerank';

const link = (chunkId: string, entity: string, weight = 1, role = 'span', sourceId = 'src'): PassageEntityLink => ({ chunkId, sourceId, entity, role, weight });

/** p1 – a – p2 – b – p3, plus c only in p1, weighted edges: small enough to solve exactly. */
const LINKS = [link('p1', 'a', 2), link('p1', 'c'), link('p2', 'a'), link('p2', 'b', 3), link('p3', 'b')];

/** x = (1 − d)·(I − d·Tᵀ)⁻¹·s by Gaussian elimination: an independent check of the power iteration. */
function exactPageRank(nodes: number, transition: number[][], seed: number[], damping: number): number[] {
  const matrix = Array.from({ length: nodes }, (_, row) => [
    ...Array.from({ length: nodes }, (_, column) => (row === column ? 1 : 0) - damping * transition[column][row]),
    (1 - damping) * seed[row],
  ]);
  for (let pivot = 0; pivot < nodes; pivot++) {
    const best = matrix.slice(pivot).reduce((top, row, offset) => (Math.abs(row[pivot]) > Math.abs(matrix[top][pivot]) ? pivot + offset : top), pivot);
    [matrix[pivot], matrix[best]] = [matrix[best], matrix[pivot]];
    for (let row = 0; row < nodes; row++) {
      if (row === pivot) continue;
      const factor = matrix[row][pivot] / matrix[pivot][pivot];
      for (let column = pivot; column <= nodes; column++) matrix[row][column] -= factor * matrix[pivot][column];
    }
  }
  return matrix.map((row, index) => row[nodes] / row[index]);
}

describe('personalizedPageRank', () => {
  it('matches the exact solution of the PPR linear system', () => {
    const graph = createPassageGraph(LINKS, { titleWeight: 1, passageToTitleWeight: 1 });
    const entities = graph.entityNames.length;
    const nodes = entities + graph.passageIds.length;
    const transition = Array.from({ length: nodes }, () => new Array<number>(nodes).fill(0));
    for (const { chunkId, entity, weight } of LINKS) {
      const e = graph.entityIndex.get(entity)!;
      const p = entities + graph.passageIndex.get(chunkId)!;
      transition[e][p] = weight;
      transition[p][e] = weight;
    }
    for (const row of transition) {
      const sum = row.reduce((total, value) => total + value, 0);
      row.forEach((value, index) => (row[index] = value / sum));
    }
    const seed = new Array<number>(nodes).fill(0);
    seed[graph.entityIndex.get('c')!] = 0.75;
    seed[entities + graph.passageIndex.get('p3')!] = 0.25;
    const expected = exactPageRank(nodes, transition, seed, 0.5);
    const result = personalizedPageRank(graph, {
      entities: new Map([[graph.entityIndex.get('c')!, 3]]),
      passages: new Map([[graph.passageIndex.get('p3')!, 1]]),
    });
    const actual = [...result.entityMass, ...result.passageMass];
    actual.forEach((value, index) => expect(value).toBeCloseTo(expected[index], 6));
    expect(actual.reduce((total, value) => total + value, 0)).toBeCloseTo(1, 9);
    expect(result.iterations).toBeLessThan(50);
  });

  it('gives forbidden passages no mass and lets no mass flow through them', () => {
    const graph = createPassageGraph(LINKS);
    const allowed = Uint8Array.from(graph.passageIds, (id) => (id === 'p2' ? 0 : 1));
    const { passageMass, entityMass } = personalizedPageRank(graph, { entities: new Map([[graph.entityIndex.get('c')!, 1]]), passages: new Map() }, allowed);
    expect(passageMass[graph.passageIndex.get('p2')!]).toBe(0);
    // p3 and b are reachable from c only through p2.
    expect(passageMass[graph.passageIndex.get('p3')!]).toBe(0);
    expect(entityMass[graph.entityIndex.get('b')!]).toBe(0);
    expect(passageMass[graph.passageIndex.get('p1')!]).toBeGreaterThan(0);
    const total = [...passageMass, ...entityMass].reduce((sum, value) => sum + value, 0);
    expect(total).toBeCloseTo(1, 9);
  });

  it('returns all zeros without seeds', () => {
    const graph = createPassageGraph(LINKS);
    const result = personalizedPageRank(graph, { entities: new Map(), passages: new Map() });
    expect(result.iterations).toBe(0);
    expect([...result.passageMass].every((value) => value === 0)).toBe(true);
  });
});
