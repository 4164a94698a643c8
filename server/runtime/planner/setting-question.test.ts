import { describe, expect, it } from 'vitest';
import { askedSettingTerms, asksConfiguredValue } from './setting-question';

describe('a noun asked of a named component', () => {
  it('keys the setting lookup by the noun, and only of a component named by a joined or CamelCase name', () => {
    expect(askedSettingTerms('Which tray profile does the nightly_purge task of label_export load?')).toContain('profile');
    expect(askedSettingTerms('Which runbook does the LabelQueueStalled alert point to?')).toContain('runbook');
    expect(asksConfiguredValue('Which printer does the team prefer for labels?')).toBe(false);
    expect(asksConfiguredValue('Which printer does Label use?')).toBe(false);
  });

  it('reads a dotted key among the words before the noun (fresh f281)', () => {
    expect(asksConfiguredValue('Which spool.format and locale does the label-sink-trays connector use for the folders it writes?')).toBe(true);
    expect(askedSettingTerms('Which spool.format and locale does the label-sink-trays connector use?')).toContain('locale');
  });
});

describe('asksConfiguredValue', () => {
  it('reads a question for a value a configuration file holds', () => {
    for (const goal of [
      "what's the memory limit on the eta-api pods in production?",
      'What TTL is configured on the vehicle_eta_features view in the Feast repo?',
      'Which compression type is set on the vehicle-positions topic itself?',
      'How long does eta-api wait on feature-redis before it gives up on the read?',
      'Besides vehicle-positions there is a third topic. How long does it keep its data, and how many partitions does it have?',
      'If the dbt_build task fails, how many times does Airflow retry it on its own?',
      'If the render step of the nightly DAG hangs, after how long does the scheduler kill it?',
      'How long do label_stats values live in the online store now, compared with job_features?',
      'How often does the spooler roll a new journal file on the label queue?',
      'If the spool-cache box restarts, what survives on disk? Is append-only persistence turned on?',
      'does print-gw autoscale on load, or is the pod count pinned in the helm values?',
      // fresh f121, f124, f125
      'How many tasks does the spool-sink-labels connector run?',
      'What EC2 instance type are the spool brokers on, and what kind of EBS volume holds their data?',
      'Which KMS key do the label sinks encrypt with, and what region is the bucket in?',
      // A tool's setting by what it does (fresh f153, f154, f155)
      'If label_export stays paused and I unpause it, will the scheduler run the missed days on its own? Can two runs of it overlap?',
      'Is spool-cache password protected at all?',
      'What metric does the SpoolQueueDeep rule actually evaluate?',
      // The fields or columns a definition lists (fresh f183)
      'What fields are in the label_job_features view? I need the full list.',
      // Which of something a named component uses (fresh f215)
      'Which tray profile does the nightly_purge task of label_export load?',
      'Which runbook does the LabelQueueStalled alert point to?',
    ]) expect(asksConfiguredValue(goal), goal).toBe(true);
  });

  it('leaves out why, who and when questions, requests, and questions naming no setting', () => {
    for (const goal of [
      'Why was the checkout-api memory limit lowered?',
      'Who changed the retention of vehicle-positions?',
      'When did the memory limit change?',
      'Restart the s3 sink connector',
      'What happened to eta-api on 14 April?',
      'Which commit broke the vehicle-positions S3 sink?',
      'How often did the spooler fail last week?',
      'What happened to the spooler after the HPA was enabled?',
      'How many tasks did the spool-sink-labels connector restart?',
    ]) expect(asksConfiguredValue(goal), goal).toBe(false);
  });
});

describe('askedSettingTerms', () => {
  it('names the setting words a key holding the value would share, said or described, and none of the general ones', () => {
    expect(askedSettingTerms("what's the memory limit on the print-gw pods?")).toEqual(['memory', 'limit']);
    expect(askedSettingTerms('The render DAG failed at :05. How long does the scheduler wait before it retries on its own?')).toEqual(['retries', 'retry', 'delay', 'interval']);
    expect(askedSettingTerms('What is configured for print-gw?')).toEqual([]);
    expect(askedSettingTerms('How many tasks does the spool-sink-labels connector run?')).toEqual(['tasks']);
  });
});
