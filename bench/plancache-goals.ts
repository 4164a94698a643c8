/**
 * Deterministic workload for bench/plancache-bench.ts: question families over the demo incident
 * corpus (examples/demo-incident), each written 3–4 ways. A family is one question; its variants
 * are paraphrases a correct cache may answer with one plan. Different slot fills are different
 * questions (another service, another topic) and must not share a plan.
 */
import { seededRandom } from './planner-goals';

export interface Family {
  readonly id: string;
  readonly variants: readonly string[];
}

const SERVICES = ['checkout-api', 'payments-service', 'ingress-gateway'];
const TOPICS = [
  ['rolling back a deployment', 'reverting a deployment', 'rollback of a deployment'],
  ['payment retries', 'retrying payments', 'payment retry policy'],
  ['memory limits', 'memory limit settings', 'container memory limits'],
];

const TEMPLATES: readonly ((slot: string) => readonly string[])[] = [
  (service) => [`Why did ${service} fail after the deploy?`, `What caused the ${service} failure after the deployment`, `Explain the ${service} failure following the deploy`],
  (service) => [`Why is ${service} slow`, `What makes ${service} so slow`, `Why is ${service} so slow today?`],
  (service) => [`Which commit broke ${service}?`, `What commit broke ${service}`, `Which change to the code broke ${service}?`],
  (service) => [`Why is ${service} crashing after the deploy?`, `What caused ${service} to crash after the deploy`, `Why does ${service} keep crashing after the deploy?`],
  (service) => [`How does ${service} handle rate limiting?`, `How does ${service} handle rate limits?`, `Explain how ${service} handles rate limiting`],
];

const TOPIC_TEMPLATES: readonly ((topic: readonly string[]) => readonly string[])[] = [
  (topic) => [`Describe best practices for ${topic[0]}`, `What are best practices for ${topic[1]}?`, `Best practices for ${topic[2]}`],
  (topic) => [`Give me an overview of ${topic[0]}`, `Overview of ${topic[1]}`, `Give an overview of ${topic[2]}`],
];

export function buildFamilies(): readonly Family[] {
  const families: Family[] = [];
  TEMPLATES.forEach((template, index) => SERVICES.forEach((service) => families.push({ id: `t${index}:${service}`, variants: template(service) })));
  TOPIC_TEMPLATES.forEach((template, index) => TOPICS.forEach((topic) => families.push({ id: `topic${index}:${topic[0]}`, variants: template(topic) })));
  return families;
}

export interface BenchContext {
  readonly id: string;
  readonly roles: readonly string[];
  readonly constraints: Readonly<Record<string, number>>;
}

/** Principals (with the bench policy, each reads a different source set) × budgets. */
export const CONTEXTS: readonly BenchContext[] = [['viewer'], ['operator'], ['admin']].flatMap((roles) =>
  ([{}, { max_cost_usd: 0.01 }, { max_cost_usd: 0.05, max_latency_seconds: 30 }] as Readonly<Record<string, number>>[]).map((constraints) => ({ id: `${roles.join('+')}|${JSON.stringify(constraints)}`, roles, constraints })),
);

export interface BenchRequest {
  readonly index: number;
  readonly family: string;
  readonly goal: string;
  readonly context: BenchContext;
}

/** Families drawn with a skew (popular questions repeat), variants and contexts uniformly. */
export function generateRequests(count: number, seed: number): readonly BenchRequest[] {
  const random = seededRandom(seed);
  const families = buildFamilies();
  const requests: BenchRequest[] = [];
  for (let index = 0; index < count; index++) {
    const family = families[Math.floor(families.length * random() ** 1.6)];
    const goal = family.variants[Math.floor(random() * family.variants.length)];
    requests.push({ index, family: family.id, goal, context: CONTEXTS[Math.floor(random() * CONTEXTS.length)] });
  }
  return requests;
}
