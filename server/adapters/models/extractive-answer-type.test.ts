import { describe, expect, it } from 'vitest';
import { toolSettingKeys, askedSettingKeys, askedTypeTerms, countedTerms, keysAskedSetting, statesCount, timesDoneSettingKeys } from './extractive-answer-type';

describe('count questions and the sentences that can answer them', () => {
  it('reads what "how many" counts, skipping the names that say whose things they are', () => {
    expect([...countedTerms('How many print-gw workers run on prn-01?')!]).toEqual(['worker', 'run']);
    expect([...countedTerms('How many print-gw replicas are there?')!]).toEqual(['replica']);
    expect(countedTerms('How long are printed job files kept?')).toBeUndefined();
    // The unit the question asks its number in is what it counts; a metrics row states it beside the value.
    expect([...countedTerms('How far behind (in messages) was the print queue at 09:00?')!]).toEqual(['messag']);
    expect(statesCount('2026-05-02T09:00:00Z,print-gw,queue_lag,8812,messages,5000', countedTerms('How far behind (in messages) was the print queue?')!)).toBe(true);
    expect(statesCount('The print queue fell behind for messages of every size.', countedTerms('How far behind (in messages) was the print queue?')!)).toBe(false);
    expect(countedTerms('Why did the spooler stop?')).toBeUndefined();
    // A partitive "of the" stands before what is counted.
    const partitive = countedTerms('When prn-03 was shut down, how many of the queues it was leading moved to prn-01?')!;
    expect([...partitive]).toEqual(['queue']);
    expect(statesCount('Controlled shutdown of spooler 3 observed; 16 queues led by 3 move to 1', partitive)).toBe(true);
  });

  it('reads "how many times does X <verb>" as counting what the clause does, which a quoted key states (fresh f03)', () => {
    const times = countedTerms('If the print job fails, how many times does the spooler retry it, and how long does it wait?')!;
    expect([...times]).toEqual(['time', 'spooler', 'retri']);
    expect(statesCount('dags/spool.py › default_args: "retries": 2,', times)).toBe(true);
    expect(statesCount('dags/spool.py › default_args: "owner": "ops",', times)).toBe(false);
  });

  it('accepts a number bound to the counted noun, in digits or words, before it or as its setting', () => {
    const counted = countedTerms('How many spoolerd workers run on prn-01?')!;
    expect(statesCount('spoolerd: back to 3 workers', counted)).toBe(true);
    expect(statesCount('The four spoolerd workers drain the queue by 02:00.', counted)).toBe(true);
    expect(statesCount('SPOOL_WORKERS=3', counted)).toBe(true);
    expect(statesCount('workers: 3', counted)).toBe(true);
    // Which one of how many: the last try of a job numbered out of all its tries.
    const tries = countedTerms('How many tries does the reprint job get before the spooler gives up?')!;
    expect(statesCount('on_failure_callback: posted ReprintFailed (reprint, try 3 of 3)', tries)).toBe(true);
    expect(statesCount('Starting attempt 2 of 3', tries)).toBe(false);
  });

  it('refuses the noun without a count and a count of something else', () => {
    const counted = countedTerms('How many spoolerd workers run on prn-01?')!;
    expect(statesCount('More workers while we look.', counted)).toBe(false);
    expect(statesCount('0/6 nodes are available to the workers', counted)).toBe(false);
    expect(statesCount('Workers render 40 pages a minute.', counted)).toBe(false);
  });
});

describe('the head noun a which/what question asks for', () => {
  it('reads the head noun, and no type when the noun only modifies a value ("instance type", "image version")', () => {
    expect([...askedTypeTerms('Which team owns spoolerd?')!]).toEqual(['team']);
    expect([...askedTypeTerms('Which prn-01 queue backs up first?')!]).toEqual(['queue']);
    expect(askedTypeTerms('What EC2 instance type do the print servers run on?')).toBeUndefined();
    expect(askedTypeTerms('What driver version is installed?')).toBeUndefined();
    expect(askedTypeTerms('Which log level does spoolerd run at?')).toBeUndefined();
  });
});

describe('a setting asked for by name', () => {
  it('reads "what is the <noun> <setting word>" as a key holding both, and no other noun pair (fresh f08)', () => {
    const asked = askedSettingKeys("what's the memory limit on the print-gw pods?");
    expect(asked).toEqual([{ kind: 'limit', qualifiers: new Set(['memori']) }]);
    expect(keysAskedSetting('helm/print-gw/values.yaml › resources: limits: {memory: 3Gi}', asked)).toBe(true);
    expect(keysAskedSetting('helm/print-gw/values.yaml › resources: requests: {cpu: "1"}', asked)).toBe(false);
    expect(askedSettingKeys('What is the retry delay of the spool DAG?')).toEqual([{ kind: 'delay', qualifiers: new Set(['retri']) }]);
    expect(askedSettingKeys('What is the main reason the spooler stopped?')).toEqual([]);
  });

  it('reads a noun asked of a named component as a key, which a command\'s flag states too (fresh f215)', () => {
    const asked = askedSettingKeys('Which tray profile does the nightly_purge task of label_export load?');
    expect(asked.map((key) => key.kind)).toEqual(['profil']);
    expect(asked[0].qualifiers).toContain('tray');
    expect(keysAskedSetting('spool/dags/label_export.py › nightly_purge: bash_command="spoolctl purge --profile glossy-tray"', asked)).toBe(true);
    expect(keysAskedSetting('spool/dags/label_export.py › nightly_purge: task_id="nightly_purge"', asked)).toBe(false);
  });

  it('reads a behaviour "how long" describes as the setting that configures it, keyed by the clause\'s names (fresh f31)', () => {
    const waits = askedSettingKeys('How long does print-gw wait on spool-cache before it gives up on the read?');
    expect(waits.map((key) => key.kind)).toEqual(['timeout']);
    expect(keysAskedSetting('helm/print-gw/values.yaml › env: SPOOL_FETCH_TIMEOUT_MS: "40"', waits)).toBe(true);
    expect(keysAskedSetting('helm/label-api/values.yaml › env: LABEL_TIMEOUT_MS: "900"', waits)).toBe(false);
    expect(askedSettingKeys('How long does it wait between tries?')).toEqual([{ kind: 'delay', qualifiers: new Set(['retri']) }, { kind: 'interv', qualifiers: new Set(['retri']) }]);
    expect(askedSettingKeys('How long do the brokers keep spool-jobs records?').map((key) => key.kind)).toEqual(['retent', 'ttl']);
    expect(askedSettingKeys('How long did the outage last?')).toEqual([]);
  });

  it('reads a tool setting asked by what it does as its key, qualified by the names the question gives (fresh f153, f154)', () => {
    const keys = toolSettingKeys('If label_export stays paused and I unpause it, will the scheduler run the missed days on its own? Can two runs of it overlap?');
    expect(keysAskedSetting('airflow/dags/label_export.py › with DAG( › catchup=False,', keys)).toBe(true);
    expect(keysAskedSetting('airflow/dags/label_export.py › with DAG( › max_active_runs=1,', keys)).toBe(true);
    expect(keysAskedSetting('airflow/dags/spool_hourly.py › with DAG( › catchup=False,', keys)).toBe(false);
    expect(keysAskedSetting('redis/spool-cache.conf › requirepass ${SPOOL_CACHE_PASSWORD}', toolSettingKeys('Is spool-cache password protected at all?'))).toBe(true);
    expect(toolSettingKeys('How many jobs did label_export run?')).toEqual([]);
  });

  it('reads whether a service autoscales as its chart\'s hpa or autoscaling switch (fresh f96)', () => {
    const keys = toolSettingKeys('does print_gateway autoscale on load, or is the pod count pinned in the helm values?');
    expect(keysAskedSetting('helm/print_gateway/values-production.yaml › hpa: enabled: false', keys)).toBe(true);
    expect(keysAskedSetting('helm/label_api/values-production.yaml › hpa: enabled: true', keys)).toBe(false);
    expect(keysAskedSetting('helm/print_gateway/values.yaml › autoscaling: enabled: true', toolSettingKeys('Will print_gateway scale out on its own when jobs pile up?'))).toBe(true);
    expect(toolSettingKeys('How many pods does print_gateway run?')).toEqual([]);
  });

  it('reads a second run started beside one still going as the overlap setting (fresh f245)', () => {
    const keys = toolSettingKeys('If a label_hourly run is still going when the next hour starts, can the scheduler kick off a second one next to it?');
    expect(keysAskedSetting('airflow/dags/label_hourly.py › with DAG( › max_active_runs=1,', keys)).toBe(true);
    expect(toolSettingKeys('Who started the second printer next week?')).toEqual([]);
  });

  it("reads a consumer's error and offset behaviour as its Kafka Connect keys (fresh f181, f185)", () => {
    const skips = toolSettingKeys("If one job can't be printed, does the print sink skip the record and carry on, or does its task go down?");
    expect(keysAskedSetting('connect/print-sink.json › "errors.tolerance": "none",', skips)).toBe(true);
    expect(keysAskedSetting('connect/print-sink.json › "tasks.max": "2",', skips)).toBe(false);
    const starts = toolSettingKeys('Where does the print sink consumer start when its committed offset is no longer on the brokers?');
    expect(keysAskedSetting('connect/print-sink.json › "consumer.override.auto.offset.reset": "earliest",', starts)).toBe(true);
    expect(toolSettingKeys('When did the print sink task go down?')).toEqual([]);
  });

  it('reads how much of a resource a pod requests as its request, not its limit (fresh f213)', () => {
    const asked = askedSettingKeys('How much CPU does each render pod request in production?');
    expect(asked).toEqual([{ kind: 'request', qualifiers: new Set(['cpu']) }]);
    expect(keysAskedSetting('helm/render/values-production.yaml › resources: requests: {cpu: "2", memory: 2Gi}', asked)).toBe(true);
    expect(keysAskedSetting('helm/render/values-production.yaml › resources: limits: {cpu: "4"}', asked)).toBe(false);
  });

  it('reads how much of a resource a thing may use before it is killed as its limit (fresh f63)', () => {
    const asked = askedSettingKeys('how much memory is the render pod allowed to use before kubernetes kills it?');
    expect(asked).toEqual([{ kind: 'limit', qualifiers: new Set(['memori']) }]);
    expect(keysAskedSetting('dags/render.py: container_resources={"requests": {"memory": "4Gi"}, "limits": {"memory": "8Gi"}},', asked)).toBe(true);
    expect(askedSettingKeys('How much cpu can the spooler get before it is throttled?')).toEqual([{ kind: 'limit', qualifiers: new Set(['cpu']) }]);
    expect(askedSettingKeys('What is the maximum memory of print-gw?')).toEqual([{ kind: 'limit', qualifiers: new Set(['memori']) }]);
    expect(askedSettingKeys('How much memory did the render pod use before it was killed?')).toEqual([]);
    expect(askedSettingKeys('How much does a label cost at most?')).toEqual([]);
  });

  it('reads "what <noun> codec / policy is …" as a key holding the value noun and a word said of the thing (fresh f66)', () => {
    const asked = askedSettingKeys('What compression codec are the Parquet files that land in print-lake-raw written with?');
    expect(keysAskedSetting('connect/s3-sink-labels.json › config: "parquet.codec": "snappy",', asked)).toBe(true);
    expect(keysAskedSetting('connect/s3-sink-labels.json › config: "s3.bucket.name": "print-lake-raw",', asked)).toBe(false);
    expect(askedSettingKeys('Which eviction policy is spool-cache running with?').map((key) => key.kind)).toEqual(['polici']);
    expect(askedSettingKeys('What happened to the parquet files?')).toEqual([]);
    // A listed noun may take two words before it (fresh f126).
    const actions = askedSettingKeys("What S3 write actions does the printer-writer role's policy grant?");
    expect(keysAskedSetting('terraform/iam-printer-writer.tf › data aws_iam_policy_document printer_writer: actions = ["s3:PutObject"]', actions)).toBe(true);
    expect(keysAskedSetting('terraform/iam-reader.tf › statement: actions = ["s3:GetObject"]', actions)).toBe(false);
    // A key or region is a value noun too (fresh f125).
    const kms = askedSettingKeys('Which KMS key do the label sinks use to encrypt what they write?');
    expect(keysAskedSetting('added: "s3.sse.kms.key.id": "alias/print-lake"', kms)).toBe(true);
    expect(keysAskedSetting('removed: "aws.access.key.id": "${file:/opt/secrets:access.key.id}",', kms)).toBe(false);
    // A plural noun asked for is a list a key names (fresh f93).
    const views = askedSettingKeys('since v3 went in, which feature views does the hourly render job push into the cache?');
    expect(keysAskedSetting("FEATURE_VIEWS: ['label_features'] → ['label_features', 'printer_stats']", views)).toBe(true);
    expect(keysAskedSetting('schedule="5 * * * *"', views)).toBe(false);
    // "Which IAM policy document controls who may assume the role?": the policy that governs assuming it (fresh f366).
    const trust = askedSettingKeys('Which IAM policy document controls who is allowed to assume the printer-writer role that the label sinks use?');
    expect(keysAskedSetting('terraform/iam-printer-writer.tf › resource aws_iam_role printer_writer: assume_role_policy = data.aws_iam_policy_document.sink_irsa.json', trust)).toBe(true);
    expect(keysAskedSetting('terraform/iam-printer-writer.tf › resource aws_iam_role printer_writer: name = "printer-writer"', trust)).toBe(false);
  });

  it('reads "which A and B does <component> declare?" as two keys asked, each with the words said of the thing (fresh f300)', () => {
    const asked = askedSettingKeys('Which record name and namespace does the print-jobs-value Avro schema declare?');
    expect(asked.map((key) => key.kind)).toEqual(['namespac', 'name']);
    expect(keysAskedSetting('schemas/print-jobs-value.avsc: "name": "PrintJob",', asked)).toBe(true);
    expect(keysAskedSetting('schemas/print-jobs-value.avsc: "namespace": "com.acmeprint.spool",', asked)).toBe(true);
    expect(keysAskedSetting('connect/s3-sink-labels.json › config: "s3.bucket.name": "print-lake-raw",', asked)).toBe(false);
  });

  it('reads "what kind of <noun>" as the key of its type, and "how many <things> does X run" as the key counting them (fresh f121, f124)', () => {
    const volume = askedSettingKeys('What EC2 instance type are the spool brokers on, and what kind of EBS volume holds their data?');
    expect(keysAskedSetting('terraform/spool-brokers.tf › module spool_brokers › data_volume: type = "gp3"', volume)).toBe(true);
    const tasks = timesDoneSettingKeys('How many tasks does the spool-sink-labels connector run?');
    expect(keysAskedSetting('connect/spool-sink-labels.json › config: "tasks.max": "2",', tasks)).toBe(true);
    expect(statesCount('connect/spool-sink-labels.json › config: "tasks.max": "2",', new Set(['task']))).toBe(true);
    // A command-line flag set to a count (fresh f123).
    expect(statesCount('added: bash_command: "cd /opt/print && render --threads 8 "', new Set(['thread']))).toBe(true);
    expect(statesCount('added: bash_command: "render --dry-run 8"', new Set(['thread']))).toBe(false);
    // A setting word counted is read as the asked setting already; a name set aside qualifies nothing.
    expect(timesDoneSettingKeys('Besides spool-labels, how many partitions does the audit topic have?')).toEqual([]);
    expect(timesDoneSettingKeys('Besides spool-labels and spool-invoices, how many tasks does the audit-sink connector run?')[0].qualifiers).toEqual(new Set(['audit', 'sink']));
  });

  it('reads "is <something> turned on?" as the key named by what it switches, a hyphenated pair joined (fresh f97)', () => {
    const asked = askedSettingKeys('If the spool box reboots, what is left? Is keep-jobs (KJ) persistence turned on?');
    expect(keysAskedSetting('added: keepjobs no', asked)).toBe(true);
    expect(keysAskedSetting('spool/spoold.conf › keepjobs no', asked)).toBe(true);
    expect(keysAskedSetting('added: protected-mode yes', asked)).toBe(false);
    // A name's parts key nothing alone: "spool-cache" would key every line of its file.
    expect(keysAskedSetting('spool/spool-cache.conf › keepjobs no', askedSettingKeys('Is spool-cache turned on?'))).toBe(false);
    expect(askedSettingKeys('What happened after keep-jobs was turned on?')).toEqual([]);
  });
});
