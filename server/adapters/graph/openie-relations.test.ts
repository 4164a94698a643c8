import { describe, expect, it } from 'vitest';
import { relationsOf, mentionsOf } from './openie-extractor';
import { layoutOf } from './pagerank-layout';
import { createPassageGraph, type EntityRelation, type PassageEntityLink } from './passage-graph';
import { personalizedPageRank } from './personalized-pagerank';

const link = (chunkId: string, entity: string, weight = 1): PassageEntityLink => ({ chunkId, sourceId: 'src', entity, role: 'span', weight });
const relation = (chunkId: string, subject: string, object: string, weight = 1): EntityRelation => ({ chunkId, subject, object, weight });

/** p1 – a – p2 – {b, d} ; b – p3 ; d – p4 – e ; OpenIE relations a–d (asserted by p2) and d–e (by p4, which makes e no leaf). */
const LINKS = [link('p1', 'a', 2), link('p1', 'c'), link('p2', 'a'), link('p2', 'b', 3), link('p2', 'd'), link('p3', 'b'), link('p4', 'd'), link('p4', 'e')];
const RELATIONS = [relation('p2', 'a', 'd', 2), relation('p4', 'd', 'e')];
const WEIGHTING = { titleWeight: 1, passageToTitleWeight: 1 };

/** x = (1 − d)·(I − d·Tᵀ)⁻¹·s by Gauss–Jordan elimination, independent of the power iteration. */
function exactPageRank(transition: number[][], seed: number[], damping: number): number[] {
  const nodes = seed.length;
  const matrix = transition.map((_, row) => [...transition.map((_, column) => (row === column ? 1 : 0) - damping * transition[column][row]), (1 - damping) * seed[row]]);
  for (let pivot = 0; pivot < nodes; pivot++) {
    for (let row = 0; row < nodes; row++) {
      if (row === pivot) continue;
      const factor = matrix[row][pivot] / matrix[pivot][pivot];
      for (let column = pivot; column <= nodes; column++) matrix[row][column] -= factor * matrix[pivot][column];
    }
  }
  return matrix.map((row, index) => row[nodes] / row[index]);
}

describe('PPR with OpenIE relation edges', () => {
  const graph = createPassageGraph(LINKS, WEIGHTING, RELATIONS);
  const entity = (name: string) => graph.entityIndex.get(name)!;
  const passage = (id: string) => graph.passageIndex.get(id)!;

  it('matches the exact solution when an entity steps to passages and related entities in proportion to their weights', () => {
    const entities = graph.entityNames.length;
    const size = entities + graph.passageIds.length;
    const transition = Array.from({ length: size }, () => new Array<number>(size).fill(0));
    for (const { chunkId, entity: name, weight } of LINKS) {
      transition[entity(name)][entities + passage(chunkId)] = weight;
      transition[entities + passage(chunkId)][entity(name)] = weight;
    }
    for (const { subject, object, weight } of RELATIONS) {
      transition[entity(subject)][entity(object)] += weight;
      transition[entity(object)][entity(subject)] += weight;
    }
    for (const row of transition) {
      const sum = row.reduce((total, value) => total + value, 0);
      row.forEach((value, index) => (row[index] = value / sum));
    }
    const seed = new Array<number>(size).fill(0);
    seed[entity('c')] = 1;
    const expected = exactPageRank(transition, seed, 0.5);
    const result = personalizedPageRank(graph, { entities: new Map([[entity('c'), 1]]), passages: new Map() });
    [...result.entityMass, ...result.passageMass].forEach((value, index) => expect(value).toBeCloseTo(expected[index], 6));
    expect(layoutOf(graph).leafPassage[entity('e')]).toBe(-1);
    expect(layoutOf(graph).leafPassage[entity('c')]).toBe(passage('p1'));
    // The relation a–d carries mass past p2 straight to d's other passage.
    const plain = personalizedPageRank(createPassageGraph(LINKS, WEIGHTING), { entities: new Map([[entity('a'), 1]]), passages: new Map() });
    const related = personalizedPageRank(graph, { entities: new Map([[entity('a'), 1]]), passages: new Map() });
    expect(related.passageMass[passage('p4')]).toBeGreaterThan(plain.passageMass[passage('p4')] * 1.5);
  });

  it('never walks a relation asserted only by a passage the caller may not read', () => {
    const allowed = Uint8Array.from(graph.passageIds, (id) => (id === 'p2' ? 0 : 1));
    const seeds = { entities: new Map([[entity('a'), 1]]), passages: new Map<number, number>() };
    const withRelations = personalizedPageRank(graph, seeds, allowed);
    const without = personalizedPageRank(createPassageGraph(LINKS, WEIGHTING, [relation('p4', 'd', 'e')]), seeds, allowed);
    expect(withRelations.passageMass[passage('p4')]).toBe(0);
    [...withRelations.passageMass].forEach((value, index) => expect(value).toBeCloseTo(without.passageMass[index], 12));
  });

  it('keeps relations between two different nodes of the passage only', () => {
    const triples = [['Orion Gateway', 'uses', 'ledger sharding scheme'], ['The Orion Gateway', 'uses', 'Ledger Sharding Scheme'], ['Orion Gateway', 'is', 'orion gateway']] as const;
    const mentions = mentionsOf([], triples);
    expect(relationsOf(triples, mentions)).toEqual([{ subject: 'orion gateway', object: 'ledger sharding scheme', relation: 'uses', count: 2 }]);
    expect(relationsOf(triples, mentions.filter((mention) => mention.name !== 'ledger sharding scheme'))).toEqual([]);
  });
});
