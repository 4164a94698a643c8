import { contentWords } from './entity-normalizer';

/** One passage–entity edge as stored in graph_passage_entities. */
export interface PassageEntityLink {
  readonly chunkId: string;
  readonly sourceId: string;
  readonly entity: string;
  readonly role: string;
  readonly weight: number;
}

/** One entity–entity edge from an OpenIE triple, as stored in graph_entity_relations. */
export interface EntityRelation {
  readonly chunkId: string;
  readonly subject: string;
  readonly object: string;
  readonly weight: number;
}

/**
 * The entity–passage graph in compressed sparse rows, both directions, so one PPR iteration is
 * two passes over flat typed arrays (no Map lookups, no objects per edge): on MuSiQue's 1,890
 * passages and ~17k entities an iteration costs well under a millisecond.
 */
export interface PassageGraph {
  readonly passageIds: readonly string[];
  readonly passageIndex: ReadonlyMap<string, number>;
  readonly passageSources: Int32Array;
  readonly sourceIds: readonly string[];
  readonly entityNames: readonly string[];
  readonly entityIndex: ReadonlyMap<string, number>;
  /** entity → passages (CSR): passages entityPassages[entityOffsets[e] … entityOffsets[e+1]). */
  readonly entityOffsets: Int32Array;
  readonly entityPassages: Int32Array;
  readonly entityWeights: Float64Array;
  /** passage → entities (CSR), same edges. */
  readonly passageOffsets: Int32Array;
  readonly passageEntities: Int32Array;
  readonly passageWeights: Float64Array;
  /**
   * entity → entity relation edges (CSR, each triple in both directions), each with the passage
   * that asserts it, so a walk restricted to readable passages skips relations only others assert.
   * Empty without OpenIE.
   */
  readonly relationOffsets: Int32Array;
  readonly relationTargets: Int32Array;
  readonly relationPassages: Int32Array;
  readonly relationWeights: Float64Array;
  /** Content word → entities containing it: the candidates of fuzzy linking. */
  readonly wordIndex: ReadonlyMap<string, readonly number[]>;
  readonly edgeCount: number;
}

export interface GraphWeighting {
  /** Multiplier on an edge between a passage and its own title entity (the strongest evidence a passage is "about" it). */
  readonly titleWeight: number;
  /** The same multiplier on the way back, from a passage to its title entity. */
  readonly passageToTitleWeight: number;
  /**
   * Multiplier on a relation edge (per triple) against a passage edge (per occurrence) when an
   * entity's step is split between its passages and its related entities; default 1, one triple
   * counting as one mention. Not yet measured: no LLM ran over the benchmark sets here.
   */
  readonly relationWeight?: number;
}

/**
 * A walk that reaches a name should land on the passage about it more than on every passage that
 * mentions it (title edges ×8 from entity to passage), while a passage should pass its mass on to
 * the names it mentions, the next hop, rather than back to its own title (×1 on the way back).
 * Measured Recall@2/5/10, MuSiQue train100 (HotpotQA train100), entity seeds only: title ×1 both
 * ways 53.6/64.8/74.5 (54.5/78.5/94.5); ×8 both ways 56.1/69.6/76.5 (71.5/88.5/95.5); ×8 and ×1
 * 56.5/69.2/76.3 (73.0/88.5/94.0). With bm25 passage seeds (share 0.05): ×8 both ways
 * 54.2/72.5/78.8 (71.0/90.5/97.5), ×8 and ×1 56.5/70.8/81.4 (73.5/90.0/96.5). The asymmetric
 * setting is kept: within a point or two on these 100-question sets, and on a 2-hop toy corpus
 * (graph-retriever.test.ts) the symmetric one let bm25 seeds outrank the bridge passage.
 */
export const DEFAULT_WEIGHTING: GraphWeighting = Object.freeze({ titleWeight: 8, passageToTitleWeight: 1 });

function intern(map: Map<string, number>, list: string[], key: string): number {
  let index = map.get(key);
  if (index === undefined) {
    index = list.length;
    map.set(key, index);
    list.push(key);
  }
  return index;
}

/** Counting sort of edges into CSR rows keyed by `rowOf`. */
function toCsr(rows: number, edges: number, rowOf: Int32Array, columnOf: Int32Array, weights: Float64Array) {
  const offsets = new Int32Array(rows + 1);
  for (let edge = 0; edge < edges; edge++) offsets[rowOf[edge] + 1]++;
  for (let row = 0; row < rows; row++) offsets[row + 1] += offsets[row];
  const cursor = offsets.slice(0, rows);
  const columns = new Int32Array(edges);
  const values = new Float64Array(edges);
  for (let edge = 0; edge < edges; edge++) {
    const at = cursor[rowOf[edge]]++;
    columns[at] = columnOf[edge];
    values[at] = weights[edge];
  }
  return { offsets, columns, values };
}

export function createPassageGraph(links: readonly PassageEntityLink[], weighting: GraphWeighting = DEFAULT_WEIGHTING, relations: readonly EntityRelation[] = []): PassageGraph {
  const passageIndex = new Map<string, number>();
  const passageIds: string[] = [];
  const sourceIndex = new Map<string, number>();
  const sourceIds: string[] = [];
  const entityIndex = new Map<string, number>();
  const entityNames: string[] = [];
  const passageOf = new Int32Array(links.length);
  const entityOf = new Int32Array(links.length);
  const weights = new Float64Array(links.length);
  const backWeights = new Float64Array(links.length);
  const sourceOfPassage: number[] = [];
  links.forEach((link, edge) => {
    const passage = intern(passageIndex, passageIds, link.chunkId);
    sourceOfPassage[passage] = intern(sourceIndex, sourceIds, link.sourceId);
    passageOf[edge] = passage;
    entityOf[edge] = intern(entityIndex, entityNames, link.entity);
    weights[edge] = link.weight * (link.role === 'title' ? weighting.titleWeight : 1);
    backWeights[edge] = link.weight * (link.role === 'title' ? weighting.passageToTitleWeight : 1);
  });
  const byEntity = toCsr(entityNames.length, links.length, entityOf, passageOf, weights);
  const relationEdges = relationCsr(entityNames.length, entityIndex, passageIndex, relations, weighting.relationWeight ?? 1);
  const byPassage = toCsr(passageIds.length, links.length, passageOf, entityOf, backWeights);
  const wordIndex = new Map<string, number[]>();
  entityNames.forEach((name, entity) => {
    for (const word of new Set(contentWords(name))) {
      const list = wordIndex.get(word);
      if (list) list.push(entity);
      else wordIndex.set(word, [entity]);
    }
  });
  return Object.freeze({
    passageIds,
    passageIndex,
    passageSources: Int32Array.from(sourceOfPassage),
    sourceIds,
    entityNames,
    entityIndex,
    entityOffsets: byEntity.offsets,
    entityPassages: byEntity.columns,
    entityWeights: byEntity.values,
    passageOffsets: byPassage.offsets,
    passageEntities: byPassage.columns,
    passageWeights: byPassage.values,
    ...relationEdges,
    wordIndex,
    edgeCount: links.length,
  });
}

/** Relation edges between entities and passages of the graph (others could only strand mass), both directions. */
function relationCsr(entities: number, entityIndex: ReadonlyMap<string, number>, passageIndex: ReadonlyMap<string, number>, relations: readonly EntityRelation[], multiplier: number) {
  const from: number[] = [];
  const to: number[] = [];
  const passages: number[] = [];
  const weights: number[] = [];
  for (const relation of relations) {
    const subject = entityIndex.get(relation.subject);
    const object = entityIndex.get(relation.object);
    const passage = passageIndex.get(relation.chunkId);
    if (subject === undefined || object === undefined || passage === undefined || subject === object || !(relation.weight > 0)) continue;
    from.push(subject, object);
    to.push(object, subject);
    passages.push(passage, passage);
    weights.push(relation.weight * multiplier, relation.weight * multiplier);
  }
  const order = Int32Array.from(from.keys());
  const byRow = toCsr(entities, from.length, Int32Array.from(from), order, Float64Array.from(weights));
  // toCsr carried each edge's original index as its column: map it to target and passage.
  const relationTargets = byRow.columns.map((edge) => to[edge]);
  const relationPassages = byRow.columns.map((edge) => passages[edge]);
  return { relationOffsets: byRow.offsets, relationTargets, relationPassages, relationWeights: byRow.values };
}

/** Passages an entity is linked to: HippoRAG's |P_i|, whose inverse is the node specificity. */
export const passageCountOf = (graph: PassageGraph, entity: number): number => graph.entityOffsets[entity + 1] - graph.entityOffsets[entity];
