import { entityShares, layoutOf } from './pagerank-layout';
import type { PassageGraph } from './passage-graph';

/**
 * Personalized PageRank over the bipartite entity–passage graph by power iteration:
 *   x ← (1 − d)·s + d·Tᵀx,
 * T the row-normalised edge weights, s the seed distribution. HippoRAG uses d = 0.5 (its walks
 * stay within a couple of hops of the query's entities); with d = 0.5 the error halves per
 * iteration, so 1e-6 in L1 takes ~20 iterations. Mass that would reach a passage the caller may
 * not read, or a node with no edges, returns to the seeds, so forbidden passages neither rank
 * nor relay evidence. OpenIE relation edges (HippoRAG's phrase–phrase edges) add entity → entity
 * steps, each usable only while the passage asserting it is readable.
 */
export interface PageRankOptions {
  readonly damping: number;
  readonly maxIterations: number;
  readonly tolerance: number;
}

export const DEFAULT_PAGERANK: PageRankOptions = Object.freeze({ damping: 0.5, maxIterations: 50, tolerance: 1e-6 });

export interface PageRankSeeds {
  /** Unnormalised seed weight per entity index. */
  readonly entities: ReadonlyMap<number, number>;
  /** Unnormalised seed weight per passage index. */
  readonly passages: ReadonlyMap<number, number>;
}

export interface PageRankResult {
  readonly passageMass: Float64Array;
  readonly entityMass: Float64Array;
  readonly iterations: number;
}

export function personalizedPageRank(graph: PassageGraph, seeds: PageRankSeeds, allowed?: Uint8Array, options: PageRankOptions = DEFAULT_PAGERANK): PageRankResult {
  const entityCount = graph.entityNames.length;
  const passageCount = graph.passageIds.length;
  const seedEntities = new Float64Array(entityCount);
  const seedPassages = new Float64Array(passageCount);
  let total = 0;
  for (const [entity, weight] of seeds.entities) if (weight > 0) total += seedEntities[entity] = weight;
  for (const [passage, weight] of seeds.passages) if (weight > 0 && (!allowed || allowed[passage])) total += seedPassages[passage] = weight;
  if (total === 0) return { passageMass: seedPassages, entityMass: seedEntities, iterations: 0 };
  for (let entity = 0; entity < entityCount; entity++) seedEntities[entity] /= total;
  for (let passage = 0; passage < passageCount; passage++) seedPassages[passage] /= total;

  const layout = layoutOf(graph);
  const { innerEntities, leafPassage, leafShare, innerOffsets, innerTargets, innerShares } = layout;
  const { entityShare, relationShare } = allowed ? entityShares(graph, allowed) : layout;
  const { entityOffsets, entityPassages, relationOffsets, relationTargets } = graph;
  const related = relationShare.length > 0;
  // The leaves of a passage hold one pooled mass (pagerank-layout.ts).
  const seedLeaves = new Float64Array(passageCount);
  for (let entity = 0; entity < entityCount; entity++) if (leafPassage[entity] >= 0) seedLeaves[leafPassage[entity]] += seedEntities[entity];
  const { damping } = options;
  let entityMass = Float64Array.from(seedEntities);
  let leafMass = Float64Array.from(seedLeaves);
  let passageMass = Float64Array.from(seedPassages);
  let nextEntity = new Float64Array(entityCount);
  let nextLeaf = new Float64Array(passageCount);
  let nextPassage = new Float64Array(passageCount);
  let restart = 1 - damping;
  let iterations = 0;
  while (iterations < options.maxIterations) {
    iterations++;
    nextLeaf.fill(0);
    nextPassage.fill(0);
    let stranded = 0;
    // Relations move mass entity → entity, so every inner entity is cleared before any receives.
    if (related) for (let index = 0; index < innerEntities.length; index++) nextEntity[innerEntities[index]] = 0;
    for (let index = 0; index < innerEntities.length; index++) {
      const entity = innerEntities[index];
      if (!related) nextEntity[entity] = 0;
      const mass = entityMass[entity];
      if (mass === 0) continue;
      let moved = false;
      for (let edge = entityOffsets[entity]; edge < entityOffsets[entity + 1]; edge++) {
        const share = entityShare[edge];
        if (share === 0) continue;
        nextPassage[entityPassages[edge]] += damping * mass * share;
        moved = true;
      }
      if (related) {
        for (let edge = relationOffsets[entity]; edge < relationOffsets[entity + 1]; edge++) {
          const share = relationShare[edge];
          if (share === 0) continue;
          nextEntity[relationTargets[edge]] += damping * mass * share;
          moved = true;
        }
      }
      if (!moved) stranded += mass;
    }
    for (let passage = 0; passage < passageCount; passage++) {
      const leaves = leafMass[passage];
      if (leaves > 0) {
        if (allowed && !allowed[passage]) stranded += leaves;
        else nextPassage[passage] += damping * leaves;
      }
      const mass = passageMass[passage];
      if (mass === 0) continue;
      nextLeaf[passage] += damping * mass * leafShare[passage];
      for (let edge = innerOffsets[passage]; edge < innerOffsets[passage + 1]; edge++) nextEntity[innerTargets[edge]] += damping * mass * innerShares[edge];
    }
    restart = 1 - damping + damping * stranded;
    let change = 0;
    for (let index = 0; index < innerEntities.length; index++) {
      const entity = innerEntities[index];
      nextEntity[entity] += restart * seedEntities[entity];
      change += Math.abs(nextEntity[entity] - entityMass[entity]);
    }
    for (let passage = 0; passage < passageCount; passage++) {
      nextLeaf[passage] += restart * seedLeaves[passage];
      nextPassage[passage] += restart * seedPassages[passage];
      change += Math.abs(nextLeaf[passage] - leafMass[passage]) + Math.abs(nextPassage[passage] - passageMass[passage]);
    }
    [entityMass, nextEntity] = [nextEntity, entityMass];
    [leafMass, nextLeaf] = [nextLeaf, leafMass];
    [passageMass, nextPassage] = [nextPassage, passageMass];
    if (change < options.tolerance) break;
  }
  // Each leaf's own share of its passage's pool, from the same last step (nextPassage now holds the previous masses).
  const { passageOffsets, passageEntities } = graph;
  for (let passage = 0; passage < passageCount; passage++) {
    for (let edge = passageOffsets[passage]; edge < passageOffsets[passage + 1]; edge++) {
      const entity = passageEntities[edge];
      if (leafPassage[entity] >= 0) entityMass[entity] = damping * nextPassage[passage] * layout.passageShare[edge] + restart * seedEntities[entity];
    }
  }
  return { passageMass, entityMass, iterations };
}
