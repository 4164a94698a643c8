import { describe, expect, it } from 'vitest';
import type { IntentClass } from '../types';
import { normalizeGoal, ruleIntentAnalyzer } from './intent-analyzer';

const analyze = (goal: string) => ruleIntentAnalyzer.analyze(goal);

/** [goal, expected primary, classes that must also apply] */
const CASES: readonly [string, IntentClass, IntentClass[]][] = [
  ['Explain why deployment checkout-api failed', 'incident', ['conceptual']],
  ['Why did payments-service crash last night?', 'incident', []],
  ['checkout-api is down', 'incident', []],
  ['Latency on the search cluster went up after the deploy — why?', 'incident', []],
  // A question about billing is not a request to act on billing (issue 10; risk-intent.test.ts).
  ['What happened to the nightly billing job', 'incident', []],
  ['Pods keep getting OOMKilled in the orders namespace', 'incident', ['exact_id']],
  ['Postmortem for the auth-gateway outage', 'incident', []],
  ['Find request req-8f3a2b9c1d in the logs', 'exact_id', []],
  ['Look up trace 3f2504e0-4f89-41d3-9a0c-0305e82c3301', 'exact_id', []],
  ['What does E1234 mean?', 'exact_id', ['conceptual']],
  ['Which commit is 9fceb02d0ae598e95dc970b74767f19372d61af8?', 'exact_id', []],
  ['Show logs for 10.0.3.17', 'exact_id', []],
  ['ERR_CONN_RESET when calling the inventory API', 'exact_id', []],
  ['Search for "connection pool exhausted" in the runbooks', 'exact_id', []],
  ['What is a circuit breaker?', 'conceptual', []],
  ['How does blue-green deployment work', 'conceptual', []],
  ['Give me an overview of our caching architecture', 'conceptual', []],
  ['rate limiting best practices', 'conceptual', []],
  // A how-to asks for instructions: the failure word names the situation (the runbook answers it).
  ['How do I restart only the failed tasks of the s3-sink connector?', 'conceptual', []],
  ['How to recover a crashed consumer', 'conceptual', []],
  ['How did the s3-sink tasks fail?', 'incident', []],
  ['Who directed the film that won Best Picture in 1998?', 'multi_hop', []],
  ['What is the capital of the country of birth of Marie Curie?', 'multi_hop', ['conceptual']],
  ['Compare Postgres and MySQL replication', 'multi_hop', []],
  ['Which is older, the Eiffel Tower or the Statue of Liberty?', 'multi_hop', []],
  ['Rollback deployment checkout-api in production', 'high_risk', []],
  ['Delete the stale rows from the orders table', 'high_risk', []],
  ['Issue a refund for order 5512', 'high_risk', []],
  ['Is there a security vulnerability in the login flow?', 'conceptual', []],
  ["What is Alice Johnson's salary?", 'sensitive', ['conceptual']],
  ['Where is the database password stored', 'sensitive', []],
  ['Customer SSN 123-45-6789 shows up in logs', 'sensitive', []],
  ['Which patients had medical records exported?', 'sensitive', []],
  ['Card 4111 1111 1111 1111 was charged twice', 'sensitive', []],
  ['Refund card 4111111111111111 for order 5512', 'sensitive', ['high_risk']],
  ['hello', 'conceptual', []],
];

describe('RuleIntentAnalyzer: personal data and secrets in the goal (the shared detector)', () => {
  it.each([
    ['Why did mail to jane.doe@example.com bounce?', 'email'],
    ['Who called from +1 415 555 0134 yesterday?', 'phone'],
    ['Was GB82 WEST 1234 5698 7654 32 paid?', 'iban'],
    ['Is AKIAIOSFODNN7EXAMPLE still used by the deploy?', 'api_key'],
    ['Which service logged eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U?', 'jwt'],
  ])('%s → sensitive (%s)', (goal, kind) => {
    const intent = analyze(goal);
    expect(intent.classes).toContain('sensitive');
    expect(intent.signals).toContain(`sensitive.pattern(${kind})`);
  });
});

describe('RuleIntentAnalyzer classes', () => {
  it.each(CASES)('%s → %s', (goal, primary, also) => {
    const intent = analyze(goal);
    expect(intent.primary).toBe(primary);
    expect(intent.classes[0]).toBe(primary);
    for (const intentClass of also) expect(intent.classes).toContain(intentClass);
    expect(intent.signals.length).toBeGreaterThan(0);
  });

  it('reads the demo goal as an incident about the checkout-api deployment', () => {
    const intent = analyze('Explain why deployment checkout-api failed');
    expect(intent.primary).toBe('incident');
    expect(intent.entities).toContain('checkout-api');
    expect(intent.identifiers).toContainEqual({ kind: 'deployment', value: 'checkout-api' });
    expect(intent.keywords).toEqual(['deployment', 'checkout-api', 'failed']);
    expect(intent.signals).toEqual(expect.arrayContaining(['incident.cue(failed)', 'identifier(deployment:checkout-api)']));
    expect(intent.normalized).toBe('explain why deployment checkout-api failed');
  });
});

describe('statements (claims) and multi-hop', () => {
  it.each([
    ['Incidence of 10/66 dementia is higher than the incidence of DSM-IV dementia.', 'multi_hop.comparative(higher than)'],
    ['Men are more susceptible to death due to pneumonia when compared to women.', 'multi_hop.cue(compared)'],
    ['Recognition of start codons depends on the translation initiation factor IF3.', 'multi_hop.cue(depends on)'],
    ['Lamins are found within the inner layer of the nuclear membrane of all cells.', 'multi_hop.nested_of'],
  ])('a claim naming fewer than two things is not multi-hop: %s', (goal, cue) => {
    const intent = analyze(goal);
    expect(intent.signals).toEqual(expect.arrayContaining([cue, 'multi_hop.statement_without_two_entities']));
    expect(intent.classes).not.toContain('multi_hop');
    expect(intent.primary).toBe('conceptual');
  });

  it('keeps a claim that chains two named things multi-hop', () => {
    const intent = analyze('The recruitment of Wdr5 to its target loci depends on Kat8.');
    expect(intent.primary).toBe('multi_hop');
    expect(intent.signals).not.toContain('multi_hop.statement_without_two_entities');
  });

  it('keeps the same cues multi-hop in a question or a request', () => {
    expect(analyze('Is dementia incidence higher than it was in 1990?').primary).toBe('multi_hop');
    expect(analyze('Which service depends on checkout-api and who owns it?').primary).toBe('multi_hop');
    expect(analyze('compare the incidence of dementia under both definitions').primary).toBe('multi_hop');
  });
});

describe('identifier extraction', () => {
  it('extracts every identifier kind from one goal', () => {
    const intent = analyze(
      'Why did pod checkout-api-7d9f8b6c5-x2k4p return HTTP 503 with ERR_CONN_RESET and E1234 for request id 8f3a2b9c1d at 10.1.2.3 after commit 1a2b3c4 (trace 3f2504e0-4f89-41d3-9a0c-0305e82c3301)?',
    );
    expect(intent.identifiers).toEqual(
      expect.arrayContaining([
        { kind: 'pod_name', value: 'checkout-api-7d9f8b6c5-x2k4p' },
        { kind: 'http_status', value: '503' },
        { kind: 'error_code', value: 'ERR_CONN_RESET' },
        { kind: 'error_code', value: 'E1234' },
        { kind: 'request_id', value: '8f3a2b9c1d' },
        { kind: 'ip', value: '10.1.2.3' },
        { kind: 'commit_sha', value: '1a2b3c4' },
        { kind: 'uuid', value: '3f2504e0-4f89-41d3-9a0c-0305e82c3301' },
      ]),
    );
    // The pod's workload name is an entity: retrieval can find the deployment's docs.
    expect(intent.entities).toContain('checkout-api');
  });

  it('does not mistake words, versions or prose numbers for identifiers', () => {
    const intent = analyze('Explain SHA256 hashing in 2024 for the decade of 1990 and the 256.1.1.1 range and deadbeef');
    expect(intent.identifiers).toEqual([]);
  });

  it('reads "the checkout-api deployment" and kubectl deploy/name forms', () => {
    expect(analyze('Why is the checkout-api deployment stuck?').identifiers).toContainEqual({ kind: 'deployment', value: 'checkout-api' });
    expect(analyze('kubectl rollout status deploy/order-router hangs').identifiers).toContainEqual({ kind: 'deployment', value: 'order-router' });
  });
});

describe('entities, keywords and normalisation', () => {
  it('collects capitalised spans, quoted strings and kebab/snake names', () => {
    const intent = analyze('Did Tom Hanks and the Bank of America team mention "cold start" in billing_cron or order-router?');
    expect(intent.entities).toEqual(expect.arrayContaining(['Tom Hanks', 'Bank of America', 'cold start', 'billing_cron', 'order-router']));
    expect(intent.entities).not.toContain('Did');
  });

  it('takes no entity from a verb written with its particle ("catching-up", fresh f170)', () => {
    expect(analyze('How fast does a catching-up print sink write compared with the scaled-down spooler-2?').entities).toEqual(['spooler-2']);
  });

  it('takes no entity from a quote with a part left out, nor from the capitalised first word of a quoted message (fresh f106)', () => {
    const intent = analyze("Right after the label sink restarted it logged 'Fetch position ... is out of range for partition'. What did that mean?");
    expect(intent.entities).toEqual([]);
    expect(analyze('What does "Queue full … dropping job" in the spooler log mean?').entities).toEqual([]);
    expect(analyze('What does "Queue full, dropping job" in the spooler log mean?').entities).toEqual(['Queue full, dropping job']);
    expect(analyze("The spooler logged 'Fleetlink Gateway timed out'. Why?").entities).toContain('Fleetlink Gateway');
  });

  it('reads a month or weekday as a date, not a named entity, so it anchors no retrieval', () => {
    const intent = analyze('Why were scans from 6 to 8 March 2026 missing from the archive on Monday?');
    expect(intent.entities).toEqual([]);
    expect(intent.signals.some((signal) => signal.startsWith('multi_hop.entity_question'))).toBe(false);
    expect(analyze('Why did Fleetlink drop scans in March?').entities).toEqual(['Fleetlink']);
    // "mid-April" is hyphenated like a name, and is a part of the calendar all the same.
    expect(analyze('Which build of the scanner was running in mid-April?').entities).toEqual([]);
  });

  it("names what a possessive is on: kafka-2's disk is about kafka-2, Alice Johnson's salary about Alice Johnson; contractions stay words", () => {
    const disk = analyze("Was kafka-2's data disk close to its alert level? What was order-router’s peak?");
    expect(disk.entities).toEqual(expect.arrayContaining(['kafka-2', 'order-router']));
    expect(disk.keywords).toEqual(expect.arrayContaining(['kafka-2', 'order-router']));
    expect(disk.keywords.some((keyword) => /['’]s$/.test(keyword))).toBe(false);
    expect(analyze("What is Alice Johnson's salary?").entities).toEqual(['Alice Johnson']);
    expect(analyze("Let's restart billing-worker, it's stuck").entities).toEqual(['billing-worker']);
    expect(analyze("I'm new on call, and a colleague suggests rewinding the sink's offsets. Am I allowed to?").entities).toEqual([]);
    expect(analyze("We're paged for eta-api, and I've no idea why. Don't we own it?").entities).toEqual(['eta-api']);
    expect(analyze("Why did O'Brien's deploy fail?").entities).toEqual(["O'Brien"]);
    // An acronym's possessive names the acronym, and the question about it chains through it (MuSiQue 3hop1__158834_84298_53741).
    const acronym = analyze("When did the group ruling the country considered one of NATO's creators during the reign of terror start?");
    expect(acronym.entities).toEqual(['NATO']);
    expect(acronym.primary).toBe('multi_hop');
  });

  it('drops stopwords and goal verbs from keywords, lower-cases and de-duplicates', () => {
    expect(analyze('Explain the Cache and the cache eviction of Redis').keywords).toEqual(['cache', 'eviction', 'redis']);
  });

  it('normalises case, whitespace and trailing punctuation only', () => {
    expect(normalizeGoal('  Why did   Checkout\tfail?!  ')).toBe('why did checkout fail');
    expect(normalizeGoal('What is v1.2?')).toBe('what is v1.2');
  });

  it('is deterministic and returns frozen data', () => {
    const goal = 'Why did checkout-api crash after commit 1a2b3c4?';
    expect(analyze(goal)).toEqual(analyze(goal));
    expect(Object.isFrozen(analyze(goal).classes)).toBe(true);
  });
});

describe('adversarial input', () => {
  it('stays linear on a 1 MB goal built to trip backtracking regexes', () => {
    const pathological = `${'a-'.repeat(250_000)}!${'E'.repeat(100_000)}${' "'.repeat(100_000)}${'1.'.repeat(100_000)}`;
    const started = performance.now();
    const intent = analyze(pathological);
    // A guard against catastrophic backtracking (minutes), not a speed figure: bench:planner measures speed.
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(intent.keywords.length).toBeLessThanOrEqual(64);
  });

});

describe('RuleIntentAnalyzer: a how-to question', () => {
  it('asks for a procedure: a failure word in it names the situation, not an incident to explain', () => {
    const intent = analyze('How do I restart only the failed tasks of the s3-sink connector?');
    expect(intent.classes).not.toContain('incident');
    expect(intent.signals).toEqual(expect.arrayContaining(['conceptual.procedure(how do i)', 'incident.situation_of_procedure']));
    // "How did … fail?" asks what happened: no procedure frame.
    expect(analyze('How did the s3-sink tasks fail?').classes).toContain('incident');
  });

  it('is read after a sentence or a clause that sets the scene, and in "what do I run" form', () => {
    const procedures: readonly [string, string][] = [
      ['Once the jam is cleared, how do I restart only the failed print jobs?', 'how do i'],
      ['The nightly label export seems stuck. How can I run it by hand?', 'how can i'],
      ['label_export failed again last night. What do I run to re-run just that day?', 'what do i run'],
      ['The spooler crashed — which command do I use to drain its queue?', 'which command do i use'],
    ];
    for (const [goal, procedure] of procedures) {
      const intent = analyze(goal);
      expect(intent.classes, goal).not.toContain('incident');
      expect(intent.signals, goal).toContain(`conceptual.procedure(${procedure})`);
    }
    // A how-question in a later sentence that asks what happened stays an incident.
    expect(analyze('The label export failed last night. How did the spooler crash?').classes).toContain('incident');
  });
});

describe('RuleIntentAnalyzer: a plain word capitalised by its place', () => {
  it('does not read a sentence-opening word as a name, while a name that opens the sentence stays one', () => {
    const according = analyze('According to the spooler log, how many jobs were waiting on Sunday?');
    expect(according.entities).not.toContain('According');
    expect(according.classes).not.toContain('multi_hop');
    expect(analyze('Simon Baker starred in which television series from the US?').entities).toContain('Simon Baker');
    expect(analyze('Heinkel HD 23 was a type of plane held by which navy?').entities[0]).toMatch(/^Heinkel/);
  });
});
