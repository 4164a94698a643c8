import { describe, expect, it } from 'vitest';
import { askedMeasure, statesMeasure } from './extractive-measure-type';

describe('measure questions and the sentences that can answer them', () => {
  it('reads the measure a question asks for, and none from other questions', () => {
    expect(askedMeasure('What average speed does eta-api assume for the fallback ETA?')).toBe('speed');
    expect(askedMeasure('How fast do trucks drive on the A2?')).toBe('speed');
    expect(askedMeasure('How long may eta-api wait on feature-redis?')).toBe('duration');
    expect(askedMeasure('What retention does the vehicle-positions topic have?')).toBe('duration');
    expect(askedMeasure('How much memory may feature-redis use?')).toBe('size');
    expect(askedMeasure('How long is the topic name?')).toBeUndefined();
    expect(askedMeasure('How many eta-api replicas run in production?')).toBeUndefined();
    expect(askedMeasure('Which team owns eta-api?')).toBeUndefined();
    expect(askedMeasure('What time did the last retry of the nightly export fail?')).toBe('clock');
    expect(askedMeasure('At which hour does the spooler drain?')).toBe('clock');
    expect(askedMeasure('What time zone are the spooler logs in?')).toBeUndefined();
    expect(askedMeasure('What time window does the freeze cover?')).toBeUndefined();
    expect(askedMeasure('How full was the spool disk on Friday afternoon?')).toBe('share');
    expect(askedMeasure('What share of the print jobs failed?')).toBe('share');
    // An age or a delay: "how stale did the table get" is answered in hours.
    expect(askedMeasure('How stale did the spool_report table get on Monday?')).toBe('duration');
    expect(askedMeasure('How late was the nightly export?')).toBe('duration');
  });

  it('"when was …" asks for a moment, and for the time of day when the question names the day', () => {
    expect(askedMeasure('When was the spooler limit raised?')).toBe('moment');
    expect(askedMeasure('On 4 May, when was the change raising the spooler limit merged?')).toBe('clock');
    expect(askedMeasure('When did the export fail on Monday, and who re-ran it?')).toBe('clock');
    expect(askedMeasure('When prn-01 was rebooted, how many jobs were lost?')).toBeUndefined();
    expect(statesMeasure('Raise the spooler limit to 400 jobs (commit 1a2b3c4, Ana Lima, 2026-05-04 08:20 UTC)', 'moment')).toBe(true);
    expect(statesMeasure('Since 3 May the spooler keeps 400 jobs.', 'moment')).toBe(true);
    expect(statesMeasure('The limit on 4 May was load, not the spooler; 400 jobs changed nothing.', 'clock')).toBe(false);
    expect(statesMeasure('The spooler keeps 400 jobs.', 'moment')).toBe(false);
    expect(statesMeasure('Prices are kept to 2 decimals.', 'moment')).toBe(false);
    expect(statesMeasure('Rotated on Mar 6.', 'moment')).toBe(true);
  });

  it('a sentence states the measure with a number in its unit or a key that names the unit', () => {
    expect(statesMeasure('it answers with the static ETA (distance / 60 km/h plus the stop times)', 'speed')).toBe(true);
    expect(statesMeasure('ETA_FALLBACK_SPEED_KMH: "60"', 'speed')).toBe(true);
    expect(statesMeasure('average speed over 15 and 60 minutes, stops done', 'speed')).toBe(false);
    expect(statesMeasure('driver_segment_stats ttl 3 days', 'duration')).toBe(true);
    expect(statesMeasure('ttl=timedelta(days=3),', 'duration')).toBe(true);
    expect(statesMeasure('FEATURE_FETCH_TIMEOUT_MS: "40"', 'duration')).toBe(true);
    expect(statesMeasure('eta-api reads the vehicle features from feature-redis', 'duration')).toBe(false);
    expect(statesMeasure('maxmemory 16gb, noeviction', 'size')).toBe(true);
    expect(statesMeasure('broker volumes 4 TB', 'size')).toBe(true);
    expect(statesMeasure('4 replicas for the end-of-January peak', 'size')).toBe(false);
    // A metric row: its value and its unit are columns of their own.
    expect(statesMeasure('timestamp: 2026-05-04T18:00:00Z, metric: cache_used_bytes, value: 6020000000, unit: bytes, threshold: 8589934592', 'size')).toBe(true);
    expect(statesMeasure('timestamp: 2026-05-04T18:00:00Z, metric: queue_jobs, value: 41, unit: jobs', 'size')).toBe(false);
  });

  it('"how long after … did …" asks for the time between two moments: a stamped line answers it as a stated duration does', () => {
    expect(askedMeasure('How long after it was merged on 4 May did the new spooler limit actually take effect?')).toBe('interval');
    expect(askedMeasure('How long before the outage did the disk alert fire?')).toBe('interval');
    expect(statesMeasure('2026-05-04T11:16:10Z INFO spoolerd: limit=16 (config reloaded at 11:13:02)', 'interval')).toBe(true);
    expect(statesMeasure('the reload takes about 8 minutes', 'interval')).toBe(true);
    expect(statesMeasure('spoolerd reads its limit from spooler.conf', 'interval')).toBe(false);
    // A bare "how long" still asks for a duration: a stamped line is not one.
    expect(statesMeasure('2026-05-04T11:16:10Z INFO spoolerd: limit=16', 'duration')).toBe(false);
  });

  it('a sentence states a share by a percentage, a percent row or a key that names it', () => {
    expect(statesMeasure('The spool volume is at 87 % and print.jobs is about 70 % of it.', 'share')).toBe(true);
    expect(statesMeasure('timestamp: 2026-03-06T15:00:00Z, metric: disk_used_pct, value: 35.6, unit: %', 'share')).toBe(true);
    expect(statesMeasure('SPOOL_FULL_RATIO: 0.9', 'share')).toBe(true);
    expect(statesMeasure('- May 6 16:53 — all four sink tasks fail with AccessDenied.', 'share')).toBe(false);
  });

  it('a sentence states a clock time by a time of day, inside a timestamp too, or a key set to one', () => {
    expect(statesMeasure('[2026-03-24T04:04:54.411+0000] INFO - Marking task as FAILED', 'clock')).toBe(true);
    expect(statesMeasure('- Mar 6 16:53 — all four sink tasks fail', 'clock')).toBe(true);
    expect(statesMeasure('The export starts at 2 am and takes an hour.', 'clock')).toBe(true);
    expect(statesMeasure('finished_at: 2026-05-04T00:12', 'clock')).toBe(true);
    expect(statesMeasure('export backfill --start-date 2026-03-20 --end-date 2026-03-23', 'clock')).toBe(false);
    expect(statesMeasure('GET http://10.42.3.17:8080/healthz ratio 3:1', 'clock')).toBe(false);
  });

  it('a question for a build or release asks for a version, which "runs dbt build" does not state', () => {
    expect(askedMeasure('Which build of the spooler was running on prn-01 when jobs stalled?')).toBe('version');
    expect(askedMeasure('What spoolerd release do the print servers run?')).toBe('version');
    expect(askedMeasure('I need the image version of the spooler for the ticket.')).toBe('version');
    expect(askedMeasure('Which build step failed?')).toBeUndefined();
    expect(statesMeasure('ops/spooler/values.yaml › image: tag: 2.11.0', 'version')).toBe(true);
    expect(statesMeasure('Pin spool-runner:0.38.1 for the nightly export', 'version')).toBe(true);
    expect(statesMeasure('The nightly job runs `make build` of the spooler on prn-01.', 'version')).toBe(false);
    expect(statesMeasure('The broker runs Kafka 3.7; the disk was at 36.9 %.', 'version')).toBe(false);
    // A product token in a request log names its version in two parts; the protocol's own token is no release of anything.
    expect(statesMeasure('"PUT /queues/labels/config HTTP/1.1" 200 2187 "-" "spool-deployer/2.3"', 'version')).toBe(true);
    expect(statesMeasure('"GET /queues/labels/status HTTP/1.1" 200 512 "-" "-"', 'version')).toBe(false);
  });

  it('a duration written in words states one: "within about ten minutes", "in an hour" (fresh f90)', () => {
    expect(statesMeasure('A merge to `main` is applied by CI within about ten minutes.', 'duration')).toBe(true);
    expect(statesMeasure('The spooler drains its queue in an hour.', 'duration')).toBe(true);
    expect(statesMeasure('Ten printers drain the queue.', 'duration')).toBe(false);
    expect(statesMeasure('monitoring/alerts/spool.yaml › rules: for: 10m', 'duration')).toBe(true);
    // fresh f132
    expect(statesMeasure('Print to both queues for at least one full day, then stop the old one.', 'duration')).toBe(true);
    expect(statesMeasure('The full queue drains.', 'duration')).toBe(false);
  });

  it('"how often does it …" asks for a rate or a period, which a log line recording one occurrence does not state (fresh f64)', () => {
    expect(askedMeasure('How often does the spooler roll a new journal file on the label queue?')).toBe('frequency');
    expect(askedMeasure('How often did the spooler fail last week?')).toBeUndefined();
    expect(statesMeasure('spool/queues.yaml › labels › config: journal.roll.ms: 3600000', 'frequency')).toBe(true);
    expect(statesMeasure('dags/render.py: schedule="5 * * * *",', 'frequency')).toBe(true);
    expect(statesMeasure('The journal is rolled every hour and kept for a week.', 'frequency')).toBe(true);
    expect(statesMeasure('[2026-03-06 16:00:02] INFO Rolled new journal file at offset 9010 in 2 ms.', 'frequency')).toBe(false);
  });

  it('asked whether something is switched on, a key set on or off answers it (fresh f96, f97)', () => {
    expect(askedMeasure('does print-gw autoscale on load, or is the pod count pinned?')).toBe('switch');
    expect(askedMeasure('Is append-only persistence turned on for spool-cache?')).toBe('switch');
    expect(statesMeasure('helm/print-gw/values.yaml › hpa: enabled: false', 'switch')).toBe(true);
    expect(statesMeasure('added: appendonly no', 'switch')).toBe(true);
    expect(statesMeasure('spool-cache INFO: maxmemory_policy=noeviction used_memory=8.59G', 'switch')).toBe(false);
  });

  it('a question for a host, port or URL asks for an address, which a sentence naming the service does not state (fresh f87)', () => {
    expect(askedMeasure("what's the host and port of our spool registry?")).toBe('address');
    expect(askedMeasure('Which URL does print-gw call for labels?')).toBe('address');
    expect(askedMeasure('Is there a single URL that shows the state of every spooler?')).toBe('address');
    expect(askedMeasure('Who owns the spool registry?')).toBeUndefined();
    expect(statesMeasure('Printers register in the spool registry (`spool-registry.print.internal:8081`).', 'address')).toBe(true);
    expect(statesMeasure('curl -s http://spool.print.internal/status', 'address')).toBe(true);
    expect(statesMeasure('print-gw/values.yaml › env: LABEL_URL: "http://labels:8080"', 'address')).toBe(true);
    expect(statesMeasure('The spool registry keeps every printer schema; ask team print before changing it.', 'address')).toBe(false);
  });

  it('an IPv4 address states an address, which a version or a figure does not (fresh f333)', () => {
    expect(askedMeasure('what address does spool-cache bind to according to its conf?')).toBe('address');
    expect(statesMeasure('spooler/spool-cache.conf: bind 0.0.0.0', 'address')).toBe(true);
    expect(statesMeasure('The print VPC is 10.20.0.0/16.', 'address')).toBe(true);
    expect(statesMeasure('spoold 2.4.1 ships with the new queue', 'address')).toBe(false);
    expect(statesMeasure('spool-cache used 0.85 of its memory', 'address')).toBe(false);
  });
});

