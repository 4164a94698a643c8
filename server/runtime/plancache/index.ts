export { SemanticPlanCache, type SemanticPlanCacheOptions } from './semantic-plan-cache';
export { MemoryPlanCacheStore } from './memory-plan-cache-store';
export { buildPlanCacheKey, differingParts, exactKeyOf, intentShapeOf, type PlanCacheKeyInput } from './plan-cache-key';
export { DEFAULT_INTENT_MATCH, IntentMatcher, cosine, type IntentMatchSettings } from './intent-matcher';
export { NEAR_MISS_FLOOR } from './near-miss';
