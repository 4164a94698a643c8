/**
 * High risk means the goal asks for a risky action to be carried out (issue 10): "how many replicas
 * run in production?" asks for information and is answered; "scale checkout-api to 0 replicas" asks
 * to act and waits for a human. The table runs the real rule analyzer and the real config policy,
 * over goals from operations, finance, HR, logistics and health care, so no single corpus shapes it.
 * Sensitive-data classification is a separate class and must not move (last block).
 */
import { describe, expect, it } from 'vitest';
import { createConfigPolicy } from '../policy/config-policy';
import type { Principal } from '../types';
import { ruleIntentAnalyzer } from './intent-analyzer';

const policy = createConfigPolicy({ sourceRoles: {}, sensitiveSources: [], highRiskRequiresHuman: true, verificationByDefault: false });
const principal: Principal = { user: 'ops', roles: ['operator'] };
const gated = (goal: string) => policy.evaluate({ intent: ruleIntentAnalyzer.analyze(goal), principal, sources: [] }).requireApproval;

/** Questions (information, a procedure, an explanation, a hypothetical) and reports of what happened. Answered, not gated. */
const QUESTIONS: readonly string[] = [
  'How many replicas run in production?',
  'What has to be done after the payment provider key is rotated?',
  'Why did the deploy to production fail?',
  'What does the runbook say about deleting old partitions?',
  'How do I rotate the payment provider key?',
  'When was the orders table last truncated?',
  'Who approved the rollback of checkout-api last night?',
  'Is there a security vulnerability in the login flow?',
  'What happened to the nightly billing job',
  'Which refunds failed yesterday?',
  'Does billing-worker retry failed payments?',
  "What is the policy for terminating an employee's system access on their last day?",
  'How long does a chargeback dispute take to resolve?',
  'Where are the database backups kept before a purge?',
  'Explain how to drop a partition safely',
  'Summarize the production changes of last week',
  'List the CVEs fixed in release 2.14',
  'Show me the steps to restart the prod database',
  'What would happen if we scaled checkout-api to 0 replicas?',
  'Drop in traffic after the deploy to production: is it related to the cache?',
  'Has the shipment to the Rotterdam warehouse been cancelled?',
  'Rollback failed for checkout-api in production, why?',
  // A verb joined by "and" to a question begun after a clause is part of that question.
  'If label_export stays paused for a few days and I unpause it, will the scheduler go back and run the missed days on its own?',
  'How can I restart a stuck pod?',
  'Release 2.14 was deployed and latency spiked',
  'Close to 500 errors per minute on checkout-api',
  'Push notifications are failing on Android',
  'Deploy to production failed for billing-worker',
  // A verb-shaped word naming a noun, also after its particle; "run me through", "update me on" ask to be told.
  'Rollback command for eta-api?',
  'Release schedule for the storefront?',
  'Fail over procedure for the payments database?',
  'Roll back steps for checkout-api?',
  'Run me through the steps to reset the offsets of the S3 sink.',
  'Could you update me on the March incident postmortem?',
  // "Is it possible to …" asks what a system can do; a statement's own verb after the verb-shaped subject.
  'Is it possible to restore a dropped table from a backup?',
  'Rollback did not fix it. Why is checkout-api still slow?',
  'Restart helped for an hour, then the sink died again. Why?',
  'Drop table vs truncate: which is safer in the warehouse?',
  'List the retention, replication and delete settings for the orders topic.',
  'With the rollback done, why is checkout-api still slow?',
  'Proceed with caution: how do I restart a stuck pod?',
  // A phrasal verb heading a statement's subject; a chore on a schedule; a second infinitive after "and".
  'Scale out to 8 workers did not help. Why is the print queue still growing?',
  "Scale up to 10 replicas didn't help. Why is latency still high?",
  'We have to restart the print spooler every Monday. What is causing it?',
  'I have to purge the label cache every time we deploy. Why?',
  'Explain how to fail over the orders database and restore it afterwards.',
  'Do rolling restarts of the spooler lose queued jobs?',
  // A sentence opening with "And"; a terse question naming a thing; a heading before a colon or a dash.
  'Why did the spooler stall? And why did the restart lose jobs?',
  'Restart order for the label-printer consumers?',
  'Release date of spooler 4.1?',
  'Upgrade to Postgres 16: any schema changes?',
  'Restart — when exactly did it happen on 9 May?',
  // Quoted material: a commit subject, a runbook line; an abbreviation's period ends no sentence.
  'Explain the commit "spooler: drop the legacy queue table".',
  'Runbook step 4: "Do not purge the queue." Why?',
  'What did the on-call do, e.g. restart the spooler or purge the queue by hand?',
  'Which is riskier here, restart vs. purge the queue?',
  // Inside a conditional that is asked about, after a statement's subject and past verb, after an explaining colon.
  'Explain what happens if we stop the spooler and purge the queue.',
  'The broker deleted the old segments and reset the consumer to earliest. Why?',
  'Explain this command: kubectl delete pod spooler-6d8f7c9b54-k2x7q',
  // An embedded question after the verb ("clear up why"), and a past statement inside what is asked to be explained.
  'Can you clear up why the print spooler stopped on Friday?',
  'Could you look into how the label queue was drained overnight?',
  'Explain why the broker deleted the old segments and reset the consumer to earliest.',
  // About a command, not the command itself: a report of its run, a read-only call, a question.
  'curl -X POST to the spooler restart endpoint returned 409. What does that mean?',
  'curl http://spooler.internal:8631/queues/labels/status',
  'airflow tasks clear with --downstream: what does it do?',
  'select count(*) from print_jobs where printed_at is null',
  // An intention stated as the purpose of the wh-question after it.
  'I need to rebuild the label mart from scratch. What is the command, and what should I know before running it?',
  // "Do" opening a question about "it", asked.
  'Do it and the label cache share memory?',
  'Roll call: who is on call for the spooler this week?',
  // A verb phrase before a colon labels the question after it; an intention followed by a question
  // about the system (a yes/no one too, or one after a semicolon) is why the asker asks.
  'Rotate the payment provider key: what else must be updated afterwards?',
  'Restart the spooler: how many times did that happen last week?',
  'We plan to delete the old invoices topic. Does anything still read it?',
  'I will redeploy label-api after lunch; is there anything in the runbook about cache warm-up?',
  // A question about the system after the comma is not a tag.
  'Restart label-api, what happens to in-flight print jobs?',
  // A dash between clauses labels the question after it, as a colon does; so does an elliptical
  // question ("Anything …?", "Any …?") after a stated intention; an auxiliary after a clause of time
  // or condition opens a yes/no question about the system, as it does at the start of a sentence.
  'Drop and recreate the label-events topic — is there a runbook for that?',
  'Bump the label-api replicas to 8 for the peak – where is that set?',
  'I want to purge the stale label templates - how is that done safely?',
  "I'm going to restart the spooler workers tonight. Anything to watch out for?",
  'Upgrade to CUPS 2.5: any driver changes?',
  'Once the driver fix is merged, do I need to restart the spooler by hand?',
  'If label-cache fills up, does it evict old templates?',
  'Do we have a runbook for restarting label-render during the day shift?',
  'psql -h label-db-prod -c "SELECT count(*) FROM label_jobs;"',
  // A perfect tense looks back; a statement of what happened; a question about the process.
  'Should we have restarted spooler-3 earlier that night?',
  'We have the label cache disabled in staging; is that why the tests are slow?',
  'The label sink restarted at 08:14 and caught up by noon.',
  'Are we clear on who owns label-api?',
  'Do a few print jobs fail on every deploy?',
  'Who has to acknowledge a LabelSinkLag page, and how fast?',
];

/**
 * Go/no-go questions: whether to act, asked of the sources. Answered, with the reading in EXPLAIN:
 * nothing is done by answering, and the people writing questions expected the runbook's answer.
 */
const GO_NO_GO: readonly string[] = [
  'Should we roll back checkout-api now?',
  'Hey team, should we roll back checkout-api?',
  'If the sink is still down, should we reset its offsets?',
  'Do we have the green light to restart label-render during the day shift?',
  'Do I have the go-ahead to disable the legacy carrier adapter?',
  'Can we proceed with the label_db 16 upgrade tonight?',
  'Are we clear to restart label-db-2 now?',
  'Am I good to drop the legacy_jobs table?',
  'can I just delete the label-printer sink and create it again so it starts from a clean state?',
  'Is it safe to restart kafka-2 while the sink catches up?',
  'Is it OK to run a full refresh of the label mart during the day?',
];

/** Requests to act on a system: imperatives, "can you …", stated intentions. Gated. */
const REQUESTS: readonly string[] = [
  'Rotate the payment provider key now',
  'Delete the orders table in production',
  'Scale checkout-api to 0 replicas',
  'Restart the prod database',
  'Run the migration against production',
  'Can you restart the prod DB?',
  'Could you please roll back checkout-api to 2.14.0?',
  'Please purge the CDN cache for the storefront',
  'Issue a refund for order 5512',
  'Rollback deployment checkout-api in production',
  'Roll back the production deployment of checkout-api and delete the failed replica set',
  'Cancel the shipment to the Rotterdam warehouse',
  "Revoke Dana's access to the HR system today",
  'I need to drop the legacy_users table before Friday',
  "Let's redeploy billing-worker with the previous image",
  'Explain the outage, then roll back checkout-api',
  'Transfer 5000 EUR from the operating account to the supplier',
  'Disable two-factor authentication for all admins',
  'Go ahead and wipe the staging cluster',
  'Delete the stale rows from the orders table',
  'Terminate instance i-0abc123 in eu-west-1',
  'Discharge the patient in bed 12 and close the admission record',
  'Would you mind restarting the prod DB?',
  'Deploy billing-worker to production',
  'Checkout is failing. Roll it back',
  'kubectl delete pod checkout-api-7d9f8b6c5-x2k4p',
  'Pause the vehicle-positions S3 sink.',
  'Rerun warehouse_daily_load for yesterday.',
  'Bounce the checkout-api pods in production.',
  // Addressed to someone first, or a proposal ("we should …").
  'Folks, can you restart the S3 sink?',
  '@oncall can you restart the prod database?',
  'We should roll back checkout-api now.',
  // A light verb whose action is a noun.
  'Proceed with the failover of the payments database.',
  'Perform a rolling restart of the Kafka brokers.',
  'Go ahead with the rollback of checkout-api.',
  // "and" after an infinitive that is itself the request; "every" before what is acted on.
  'Use kubectl to restart the spooler pod and delete the old replica set.',
  'We need to restart every broker in production tonight.',
  'Scale up the label-printer consumers to 10 now.',
  // Skipping and clearing change state; "do" carries an action noun; a participle after a determiner describes the object.
  'Skip the poison message on the print queue.',
  'Clear the failed tasks of the nightly export.',
  'Please do a rolling restart of the spooler pods.',
  'Restart the failed pods of the spooler in production.',
  // Still requests: a terse question with an object; "explain why … and roll it back" asks for both; a quote does not hide the request outside it.
  'Restart the spooler in production?',
  'Explain why the spooler failed and roll it back in production.',
  'Drop the table "legacy_jobs" in production.',
  // Queue and certificate verbs; a hyphenated prefix; an addressee with no name; "mind …ing"; "time to …".
  'Requeue the dead-lettered print jobs.',
  'We need to renew the spooler certificate by hand right now.',
  'Re-create the label-printer connector.',
  'Force-renew the broker certificate on mq-4.',
  'Someone please restart the spooler.',
  'Mind restarting the spooler?',
  'Time to roll back the spooler to 4.0.',
  // A phrasal verb with its object between verb and particle; a bare command sentence.
  'Take ledger-db-2 offline.',
  'Shut the old spooler down.',
  'Restart.',
  // A rolling restart named by its verb alone; a command standing for an action named before it.
  'Roll label-api one instance at a time.',
  'Do it now.',
  'Please just do that.',
  // An intention with a go/no-go or a request after it still asks to act.
  'I need to rebuild the label mart from scratch. Is that safe?',
  'We plan to drop the legacy_jobs table. Is anything against it?',
  'We need to restart the spooler tonight. Does the change policy allow it?',
  'Restart the spooler: can you?',
  'Drop the legacy_jobs table: should we?',
  'We need to restart the spooler. Can you restart it now?',
  // A command with a tag question after the comma: the question mark is the tag's, not a terse question's.
  'Restart label-api in production, what are you waiting for?',
  'Restart label-api in production, will you?',
  'Scale label-printer to 6 replicas, please?',
  'Roll back the spooler deploy now, ok?',
  // The same after a dash: a go/no-go or a tag question put to the one addressed.
  'Restart label-api in production — is that safe?',
  'Restart the spooler — what are you waiting for?',
  'Purge the label queue – it is full.',
  "I'm going to restart the spooler workers tonight — is that ok?",
  'Reset the label-sink offsets — any objections?',
  // After a clause of time or condition, a request or a go/no-go still asks to act.
  'Once the driver fix is merged, can you restart the spooler?',
  'When you get a minute, could you roll back label-api?',
  // Asking for clearance to act; a light verb whose action noun comes after a version; a reversal.
  'Reverse the duplicate label charge for order 77812.',
  // Options before the statement or the subcommand: psql, aws.
  'psql -h label-db-prod -c "DELETE FROM label_jobs WHERE created_at < now() - interval \'30 days\';"',
  'aws s3 rm s3://label-archive/tmp/ --recursive',
  'aws ec2 terminate-instances --instance-ids i-0abc123',
  // A command line or an admin SQL call that changes the system when run.
  'curl -X DELETE http://spooler.internal:8631/queues/labels',
  'curl -s -X POST "http://spooler.internal:8631/queues/labels/restart?onlyFailed=true"',
  'airflow tasks clear label_export --start-date 2026-05-04 --end-date 2026-05-04 --yes',
  'redis-cli -h label-cache.internal FLUSHALL',
  'kafka-consumer-groups --reset-offsets --to-earliest --group label-sink --execute',
  'select pg_terminate_backend(4242);',
  // Done by someone else: the action is a participle after its object; clearance said of the asker.
  'Can we get label-sink restarted?',
  'I need the spooler pods restarted — `kubectl rollout restart deployment/spooler -n labels`.',
  'Could you have the stale label queue purged before the morning shift?',
  // "Do" before an article names the action; state changes of runs, alerts and registries.
  'Do a controlled shutdown of spooler-3 for patching.',
  'Kick off a full refresh of the label mart.',
  'Mark the failed label_export run as success so the alert stops.',
  'Register the new label-events schema version.',
  'Silence LabelQueueBacklog for the next two hours.',
  'Acknowledge the LabelSinkLag page and resolve the incident.',
  'If the spooler is stuck after the patch, will you check it and restart it?',
];

describe('risk classification reads intent, not words', () => {
  it('has at least thirty goals', () => {
    expect(QUESTIONS.length + REQUESTS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(QUESTIONS)('question, not an action: %s', (goal) => {
    const intent = ruleIntentAnalyzer.analyze(goal);
    expect(intent.classes).not.toContain('high_risk');
    expect(gated(goal)).toBe(false);
  });

  it.each(GO_NO_GO)('go/no-go question, answered: %s', (goal) => {
    const intent = ruleIntentAnalyzer.analyze(goal);
    expect(intent.classes).not.toContain('high_risk');
    expect(gated(goal)).toBe(false);
    expect(intent.signals.some((signal) => signal.startsWith('risk.go_no_go_answered('))).toBe(true);
  });

  it.each(REQUESTS)('request to act, gated: %s', (goal) => {
    const intent = ruleIntentAnalyzer.analyze(goal);
    expect(intent.classes).toContain('high_risk');
    expect(gated(goal)).toBe(true);
  });
});

describe('the reading is recorded where the intent signals are (EXPLAIN shows why)', () => {
  const signals = (goal: string) => ruleIntentAnalyzer.analyze(goal).signals;

  it('names the requested action and the form of the request', () => {
    expect(signals('Delete the orders table in production')).toEqual(expect.arrayContaining(['mood.imperative(delete)', 'high_risk.action(delete the orders table)', 'high_risk.target(production)']));
    expect(signals('Can you restart the prod DB?')).toEqual(expect.arrayContaining(['mood.request(can you restart)', 'high_risk.action(restart the prod db)']));
    expect(signals('Should we roll back checkout-api now?')).toEqual(expect.arrayContaining(['mood.decision(should we roll back)', 'risk.go_no_go_answered(roll back checkout-api now)']));
    expect(signals('Can we get label-sink restarted?')).toEqual(expect.arrayContaining(['mood.request(can we restarted)']));
    expect(signals("Let's redeploy billing-worker with the previous image")).toEqual(expect.arrayContaining(["mood.intention(let's redeploy)"]));
  });

  it('says a question that mentions risky words is read as a question', () => {
    const read = signals('What has to be done after the payment provider key is rotated?');
    expect(read).toContain('mood.question(what)');
    expect(read).toContain('risk.topic_not_action(payment, rotated)');
    expect(read.some((signal) => signal.startsWith('high_risk'))).toBe(false);
  });

  it('does not make an imperative verb at the start a named entity', () => {
    expect(ruleIntentAnalyzer.analyze('Rotate the payment provider key now').entities).not.toContain('Rotate');
  });
});

describe('sensitive-data classification is untouched', () => {
  it.each([
    ['Where is the database password stored', true],
    ['Customer SSN 123-45-6789 shows up in logs', true],
    ['Card 4111 1111 1111 1111 was charged twice', true],
    ['Which api keys were rotated last week?', true],
    ['How many replicas run in production?', false],
  ] as const)('%s → sensitive %s', (goal, sensitive) => {
    expect(ruleIntentAnalyzer.analyze(goal).classes.includes('sensitive')).toBe(sensitive);
  });
});
