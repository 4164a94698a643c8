import { ruleIntentAnalyzer } from '../../server/runtime/planner/intent-analyzer';
const goals = [
  'Walk me through restarting the vehicle-positions sink after an outage.',
  'Explain how to re-run warehouse_daily_load for a single day.',
  'Give me the steps to backfill three days of warehouse_daily_load.',
  'Steps to restart a failed Kafka Connect task?',
  'Describe how the feature store gets refreshed every hour.',
  'List the alerts that page the data platform on-call.',
  'Show the retention of the vehicle-positions topic in production.',
  'Tell me which rotation owns feature-redis.',
  'How do I raise maxmemory on feature-redis in production?',
  'What should I do before restarting the S3 sink?',
  'How should the on-call handle a schema change that breaks the warehouse load?',
  'When the warehouse load fails, how do I clear the failed task and re-run it?',
  'Restarting the S3 sink: what do I check first?',
  'If feature-redis is full, what do I change?',
  'What happens if I delete the consumer group of the S3 sink?',
  'Which command resets the offsets of a Connect sink?',
  'Where is the retention of vehicle-positions configured?',
  'I need to know the compatibility mode of shipment-events-value.',
  'Please find out how many tasks the vehicle-positions sink runs.',
  'Check which commit changed the warehouse_daily_load schedule.',
  'Find the log line where kafka-2 applied the new retention.',
  'Summarise the March vehicle-positions incident.',
  'Explain why eta-api served static ETAs on 14 April.',
  'How long may eta-api wait on feature-redis in production?',
  'How much disk do the Kafka brokers have in production?',
  'How are connector configurations deployed to production?',
  'How do I roll back a bad connector config in production?',
  'What is the procedure to drop an old topic?',
];
for (const goal of goals) {
  const intent = ruleIntentAnalyzer.analyze(goal);
  console.log(`${intent.classes.join("+").padEnd(28)} ${intent.signals.filter((s) => /risk|action|mood/.test(s)).join(" ")} | ${goal}`);
}
