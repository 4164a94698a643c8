/**
 * Deterministic goal generator for bench/planner-bench.ts: templates × entities ×
 * identifiers, drawn with a seeded PRNG so every run plans the same goals.
 */

/** mulberry32 (Tommy Ettinger's public-domain 32-bit PRNG): tiny, fast, good enough for sampling. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const SERVICES = ['checkout-api', 'payments-service', 'auth-gateway', 'inventory-worker', 'search-indexer', 'billing_cron', 'order-router', 'email-dispatcher', 'cart-cache', 'user-profile-api'];
const PEOPLE = ['Alice Johnson', 'Bob Martinez', 'Priya Natarajan', 'Chen Wei', 'Fatima Zahra'];
const TOPICS = ['connection pooling', 'blue-green deployments', 'rate limiting', 'circuit breakers', 'idempotency keys', 'cache invalidation', 'feature flags', 'database migrations', 'retry budgets', 'SLO burn rates'];
const ERROR_CODES = ['E1234', 'ERR_CONN_RESET', 'ECONNREFUSED', 'ORA-00942', 'OOMKilled', 'CrashLoopBackOff', 'NullPointerException', 'E5021'];
const FILMS = ['Inception', 'The Godfather', 'Spirited Away', 'Parasite', 'Amélie'];

function hex(random: () => number, length: number): string {
  let text = '';
  while (text.length < length) text += Math.floor(random() * 16).toString(16);
  return text.slice(0, length);
}

function alnum(random: () => number, length: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let text = '';
  for (let index = 0; index < length; index++) text += alphabet[Math.floor(random() * alphabet.length)];
  return text;
}

type Filler = Record<string, () => string>;

const TEMPLATES: readonly string[] = [
  'Explain why deployment {service} failed',
  'Why did {service} crash after commit {sha}?',
  'Why is pod {pod} OOMKilled?',
  'What caused the outage of {service} last night',
  'Latency spike on {service}: what happened around 14:00?',
  'Find request {request} in the logs',
  'What does {error} mean in {service}?',
  'Look up trace {uuid}',
  'Which commit introduced {error}? Check {sha}',
  'HTTP 503 errors from {service} behind {ip}',
  'Search for "{topic}" in the runbooks',
  'What is {topic} and how does it apply to {service}?',
  'Explain the architecture of {service}',
  'How does {service} handle {topic}?',
  'Describe best practices for {topic}',
  'Give me an overview of {topic}',
  'Compare {service} and {service2} error budgets',
  'Who directed the film that won the award {film} was nominated for?',
  'What is the capital of the country of birth of {person}?',
  'Which is older, {film} or {film2}?',
  'Which service depends on {service} and who owns it?',
  'Rollback deployment {service} in production',
  'Delete the stale records from the payments table',
  'Refund order {request} for {person}',
  'Is there a security vulnerability in {service} (CVE-2024-3094)?',
  'What is the salary of {person}?',
  'Show the password rotation policy for {service}',
  'Which patients were affected by the {service} medical records export?',
  'Summarize the postmortem for the {service} incident',
  'Why are {service} requests timing out with {error}?',
];

/** Goal i uses template i mod TEMPLATE_COUNT. */
export const TEMPLATE_COUNT = TEMPLATES.length;

export interface BenchGoal {
  readonly goal: string;
  readonly template: number;
}

export function generateGoals(count: number, seed: number): BenchGoal[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const fill: Filler = {
    service: () => pick(SERVICES),
    service2: () => pick(SERVICES),
    person: () => pick(PEOPLE),
    topic: () => pick(TOPICS),
    error: () => pick(ERROR_CODES),
    film: () => pick(FILMS),
    film2: () => pick(FILMS),
    sha: () => hex(random, 7 + Math.floor(random() * 6)),
    uuid: () => `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-a${hex(random, 3)}-${hex(random, 12)}`,
    pod: () => `${pick(SERVICES).replace('_', '-')}-${alnum(random, 9)}-${alnum(random, 5)}`,
    request: () => `req-${hex(random, 10)}`,
    ip: () => `10.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`,
  };
  const goals: BenchGoal[] = [];
  for (let index = 0; index < count; index++) {
    const template = index % TEMPLATES.length;
    const goal = TEMPLATES[template].replace(/\{(\w+)\}/g, (_, name: string) => fill[name]());
    goals.push({ goal, template });
  }
  return goals;
}
