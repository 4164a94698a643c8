/** Public surface of the planner pipeline (intent → candidates → cost model → constraints → optimizer). */
export { RuleIntentAnalyzer, ruleIntentAnalyzer, normalizeGoal } from './intent-analyzer';
export { RuleCandidateGenerator, ruleCandidateGenerator } from './candidate-generator';
export { plannableSources } from './candidate-dimensions';
export { INTENT_RULES, applicableRules, methodFamily, recallPriorFor, type IntentRule, type MethodFamily } from './rules';
export { planGoal, type PlanGoalInput, type PlanGoalResult, type PlanTimings } from './plan-pipeline';
export { HeuristicCostModel, heuristicCostModel } from '../costmodel/heuristic-cost-model';
export { resolveWeights, scorePlan, scoreComponents, WEIGHT_NAMES } from '../costmodel/plan-score';
export { checkConstraints, yieldsCheckedCitations } from '../constraints/hard-constraints';
export { validateConstraints, mergeConstraints } from '../constraints/validate-constraints';
export { PlanOptimizer, planOptimizer, nearestCandidates, type PlanOptimizerResult } from '../optimizer/plan-optimizer';
export { pruneDominated } from '../optimizer/dominance';
export { packContext, DP_CELL_LIMIT, type KnapsackItem, type KnapsackResult } from '../optimizer/token-knapsack';
