import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../runtime/text/sentence-splitter';
import { blockPieces } from './extractive-block-parser';
import { csvFields } from './extractive-csv-fields';
import { commitMoment } from './extractive-commit-moment';

const gitShow = [
  'commit 48d41880bf3eee1abd857898052a9410a6ea68b9',
  'Author: Carol Nguyen <carol.nguyen@shop.example>',
  'Date:   2025-06-02T18:41:00+02:00',
  '',
  '    Lower checkout-api memory limit to 256Mi to cut cluster cost',
  '',
  '    Over the last 7 days the average working set of checkout-api was 196Mi',
  '    per pod, so a 256Mi limit still leaves about 30% headroom.',
  '',
  ' k8s/checkout-api/deployment.yaml | 4 ++--',
  ' 1 file changed, 2 insertions(+), 2 deletions(-)',
  '',
  'diff --git a/k8s/checkout-api/deployment.yaml b/k8s/checkout-api/deployment.yaml',
  'index 797d79b..821e177 100644',
  '--- a/k8s/checkout-api/deployment.yaml',
  '+++ b/k8s/checkout-api/deployment.yaml',
  '@@ -45,10 +45,10 @@ spec:',
  '           resources:',
  '             requests:',
  '-              memory: 384Mi',
  '+              memory: 192Mi',
  '             limits:',
  '               cpu: "1"',
  '-              memory: 512Mi',
  '+              memory: 256Mi',
  '           readinessProbe:',
].join('\n');

describe('extractive block parser', () => {
  it('reads git show output as subject, rejoined message sentences and changed values, dropping headers', () => {
    expect(blockPieces(gitShow)).toEqual([
      // The subject names its commit, author and day ("which commit…, who wrote it, when?"); it is scored without them.
      { text: 'Lower checkout-api memory limit to 256Mi to cut cluster cost (commit 48d4188, Carol Nguyen, 2025-06-02 16:41 UTC)', role: 'subject', scored: 'Lower checkout-api memory limit to 256Mi to cut cluster cost' },
      // A message sentence names its commit and author too: quoted alone, "which commit made …?" had the why and not the which, "who …?" not the who.
      {
        text: 'Over the last 7 days the average working set of checkout-api was 196Mi per pod, so a 256Mi limit still leaves about 30% headroom (commit 48d4188, Carol Nguyen).',
        role: 'prose',
        scored: 'Over the last 7 days the average working set of checkout-api was 196Mi per pod, so a 256Mi limit still leaves about 30% headroom.',
      },
      // The files it changed, as its diffstat lists them, scored with its subject (fresh f417).
      {
        text: 'files changed: k8s/checkout-api/deployment.yaml (commit 48d4188, Carol Nguyen)',
        role: 'files',
        scored: 'Lower checkout-api memory limit to 256Mi to cut cluster cost: files changed: k8s/checkout-api/deployment.yaml',
      },
      // A changed line is shown with its file, as a setting is, and scored on its own words (fresh f288).
      { text: 'k8s/checkout-api/deployment.yaml › resources › requests: memory: 384Mi → 192Mi', scored: 'resources › requests: memory: 384Mi → 192Mi', role: 'change' },
      // An unchanged setting is the file's value as it stands, named by its file and the key it sits under.
      { text: 'k8s/checkout-api/deployment.yaml › resources › limits: cpu: "1"', role: 'setting' },
      { text: 'k8s/checkout-api/deployment.yaml › resources › limits: memory: 512Mi → 256Mi', scored: 'resources › limits: memory: 512Mi → 256Mi', role: 'change' },
    ]);
  });

  it('keeps unpaired changed lines as added / removed', () => {
    const diff = ['@@ -1,3 +1,2 @@ func f() {', ' \tx := get()', '-\tif x == nil {', '-\t\treturn err', '+\tlog(x)'].join('\n');
    expect(blockPieces(diff).map((piece) => piece.text)).toEqual(['added: log(x)', 'removed: if x == nil {', 'removed: return err']);
  });

  it('names the settings block a changed HCL value sits in, but not a block of code', () => {
    const terraform = ['@@ -5,7 +5,7 @@ module "brokers" {', '   instance_type = "r6i.2xlarge"', '   data_volume = {', '     type = "gp3"', '-    size_gb = 2000', '+    size_gb = 4000', '   }'].join('\n');
    expect(blockPieces(terraform).filter((piece) => piece.role === 'change').map((piece) => piece.text)).toEqual(['data_volume: size_gb: 2000 → 4000']);
    const code = ['@@ -1,3 +1,3 @@', ' x := get()', ' if x == nil {', '-  return err', '+  return wrap(err)', ' }', ' y = compute(x)'].join('\n');
    expect(blockPieces(code).map((piece) => piece.text)).toEqual(['added: return wrap(err)', 'removed: return err']);
  });

  it("yields a diff's unchanged settings as the file states them, with its path and block (freight dev d94)", () => {
    const terraform = ['diff --git a/terraform/kafka-brokers.tf b/terraform/kafka-brokers.tf', '@@ -5,7 +5,7 @@ module "brokers" {', '   instance_type = "r6i.2xlarge"', '   data_volume = {', '     type       = "gp3"', '-    size_gb = 2000', '+    size_gb = 4000', '   }'].join('\n');
    expect(blockPieces(terraform)).toEqual([
      { text: 'terraform/kafka-brokers.tf: instance_type = "r6i.2xlarge"', role: 'setting' },
      { text: 'terraform/kafka-brokers.tf › data_volume: type = "gp3"', role: 'setting' },
      { text: 'terraform/kafka-brokers.tf › data_volume: size_gb: 2000 → 4000', scored: 'data_volume: size_gb: 2000 → 4000', role: 'change' },
    ]);
  });

  it('reads "key value" lines of a .conf file as its settings, and no other file\'s (fresh f309)', () => {
    const diff = (path: string) => [`diff --git a/${path} b/${path}`, '@@ -2,6 +2,6 @@', ' port 9100', ' strict-mode yes', '-max-jobs 8', '+max-jobs 16', ' # keep idle workers a minute', ' idle-timeout 60'].join('\n');
    expect(blockPieces(diff('spooler/spoold.conf')).filter((piece) => piece.role === 'setting').map((piece) => piece.text)).toEqual([
      'spooler/spoold.conf: port 9100',
      'spooler/spoold.conf: strict-mode yes',
      'spooler/spoold.conf: idle-timeout 60',
    ]);
    expect(blockPieces(diff('spooler/NOTES.txt')).filter((piece) => piece.role === 'setting')).toEqual([]);
    // A changed "key value" line is one key's change, old value beside new (fresh f231).
    expect(blockPieces(diff('spooler/spoold.conf')).filter((piece) => piece.role === 'change').map((piece) => piece.text)).toEqual(['spooler/spoold.conf: max-jobs: 8 → 16']);
  });

  it('reads an unchanged comment of four words or more as what the file says, with its file (fresh f120)', () => {
    const diff = ['diff --git a/helm/print-gw/values.yaml b/helm/print-gw/values.yaml', '@@ -1,4 +1,4 @@', ' # Helm values for print-gw in production (Argo CD app print-gw-prod)', '-replicaCount: 4', '+replicaCount: 6', ' # limits', ' image: print-gw'].join('\n');
    expect(blockPieces(diff).filter((piece) => piece.role === 'prose').map((piece) => piece.text)).toEqual(['helm/print-gw/values.yaml: Helm values for print-gw in production (Argo CD app print-gw-prod)']);
  });

  it('names no block after the close of a call that opens a Python block (fresh f393)', () => {
    const diff = ['diff --git a/dags/label_hourly.py b/dags/label_hourly.py', '@@ -8,5 +8,5 @@', ' with DAG(', '     dag_id="label_hourly",', ' ) as dag:', '-    pool = "small"', '+    pool = "large"', '     retries = 2'].join('\n');
    const texts = blockPieces(diff).map((piece) => piece.text);
    expect(texts).toContain('dags/label_hourly.py: pool: "small" → "large"');
    expect(texts).toContain('dags/label_hourly.py: retries = 2');
  });

  it("reads the file's line git prints after a hunk's numbers as a setting, unless it opens a block (fresh f333)", () => {
    const diff = (heading: string) => ['diff --git a/spooler/spoold.conf b/spooler/spoold.conf', `@@ -4,3 +4,3 @@ ${heading}`, ' port 9100', '-max-jobs 8', '+max-jobs 16'].join('\n');
    expect(blockPieces(diff('bind 10.1.0.7')).filter((piece) => piece.role === 'setting').map((piece) => piece.text)).toEqual(['spooler/spoold.conf: bind 10.1.0.7', 'spooler/spoold.conf: port 9100']);
    expect(blockPieces(diff('queue = SpoolQueue(')).filter((piece) => piece.role === 'setting').map((piece) => piece.text)).toEqual(['spooler/spoold.conf: port 9100']);
  });

  it('goes on with a setting on the line under it that opens with an operator, but not under another line (fresh f308)', () => {
    const dag = ['diff --git a/dags/print_export.py b/dags/print_export.py', 'new file mode 100644', '--- /dev/null', '+++ b/dags/print_export.py', '@@ -0,0 +1,4 @@', '+cmds=["spoolctl", "export"]', '+    + [arg for queue in QUEUES for arg in ("--queue", queue)],', '+# done', '+    + ["--dry-run"]'].join('\n');
    expect(blockPieces(dag).map((piece) => piece.text)).toEqual([
      'dags/print_export.py: cmds=["spoolctl", "export"] + [arg for queue in QUEUES for arg in ("--queue", queue)],',
      'added: dags/print_export.py: # done',
      'added: dags/print_export.py: + ["--dry-run"]',
    ]);
  });

  it('joins a string wrapped over changed lines into one piece, but not JSON keys nor list elements (fresh f123)', () => {
    const dag = ['@@ -1,6 +1,6 @@', '     render = BashOperator(', '         bash_command=(', '+            "cd /opt/print && render --threads 8 "', '+            "--select tag:nightly --dry-run"', '         ),'].join('\n');
    expect(blockPieces(dag).map((piece) => piece.text)).toContain('added: render › bash_command: "cd /opt/print && render --threads 8 " "--select tag:nightly --dry-run"');
    const json = ['@@ -1,4 +1,4 @@', ' {', '+  "tasks.max": "2",', '+  "topics": "labels",', ' }'].join('\n');
    expect(blockPieces(json).map((piece) => piece.text)).toEqual(['added: "tasks.max": "2",', 'added: "topics": "labels",']);
    const list = ['@@ -1,4 +1,4 @@', '   actions = [', '+    "s3:PutObject",', '+    "s3:GetObject",', '   ]'].join('\n');
    expect(blockPieces(list).filter((piece) => piece.role === 'change')).toHaveLength(2);
  });

  it('names the two blocks a nested line sits in, so a key repeated under every entry says whose it is', () => {
    const queues = ['diff --git a/spool/queues.yaml b/spool/queues.yaml', 'new file mode 100644', '@@ -0,0 +1,9 @@', '+queues:', '+  labels:', '+    workers: 4', '+    config:', '+      keep.hours: 72', '+  invoices:', '+    workers: 2', '+    config:', '+      keep.hours: 24'].join('\n');
    expect(blockPieces(queues).map((piece) => piece.text)).toContain('added: spool/queues.yaml › labels › config: keep.hours: 72');
    expect(blockPieces(queues).map((piece) => piece.text)).toContain('added: spool/queues.yaml › invoices › config: keep.hours: 24');
    expect(blockPieces(queues).map((piece) => piece.text)).toContain('added: spool/queues.yaml › queues › invoices: workers: 2');
  });

  it("reads a file the commit creates as the file's settings, with its path and block, and its other lines as added (fresh f08)", () => {
    const created = ['diff --git a/helm/eta-api/values.yaml b/helm/eta-api/values.yaml', 'new file mode 100644', 'index 0000000..1111111', '--- /dev/null', '+++ b/helm/eta-api/values.yaml', '@@ -0,0 +1,4 @@', '+# Helm values for eta-api', '+resources:', '+  limits: {memory: 3Gi}', '+replicaCount: 3'].join('\n');
    expect(blockPieces(created)).toEqual([
      { text: 'added: helm/eta-api/values.yaml: # Helm values for eta-api', scored: 'added: # Helm values for eta-api', role: 'change' },
      { text: 'added: helm/eta-api/values.yaml: resources:', scored: 'added: resources:', role: 'change' },
      { text: 'helm/eta-api/values.yaml › resources: limits: {memory: 3Gi}', role: 'setting' },
      { text: 'helm/eta-api/values.yaml: replicaCount: 3', role: 'setting' },
    ]);
    // A file the commit changes keeps its changed lines as changes.
    expect(blockPieces(created.replace('--- /dev/null', '--- a/helm/eta-api/values.yaml')).map((piece) => piece.role)).toEqual(['change', 'change', 'change', 'change']);
  });

  it('reads a call of literals, a quoted key and an HCL block as settings, but not a call of anything else', () => {
    const python = ['diff --git a/dags/spool.py b/dags/spool.py', '@@ -3,6 +3,6 @@', ' spool_stats = FeatureView(', '     ttl=timedelta(days=3),', '     source=load(cfg),', ' default_args={', '     "retries": 2,', '-    "owner": "ops",', '+    "owner": "print-ops",'].join('\n');
    expect(blockPieces(python).filter((piece) => piece.role === 'setting').map((piece) => piece.text)).toEqual(['dags/spool.py › spool_stats: ttl=timedelta(days=3),', 'dags/spool.py › default_args: "retries": 2,']);
    const hcl = ['diff --git a/tf/spool.tf b/tf/spool.tf', '@@ -1,4 +1,4 @@', ' module "print_servers" {', '   instance_type = "m6i.large"', '-  count = 2', '+  count = 3'].join('\n');
    expect(blockPieces(hcl)[0]).toEqual({ text: 'tf/spool.tf › module print_servers: instance_type = "m6i.large"', role: 'setting' });
  });

  it('names the columns of each CSV row and never yields the header row', () => {
    const csv = 'timestamp,metric,value,unit\n09:38,"memory{rs=""a""}",255,MiB\n09:40,restarts,9,';
    expect(blockPieces(csv)).toEqual([
      { text: 'timestamp: 09:38, metric: memory{rs="a"}, value: 255, unit: MiB', role: 'row', scored: '09:38,"memory{rs=""a""}",255,MiB' },
      { text: 'timestamp: 09:40, metric: restarts, value: 9', role: 'row', scored: '09:40,restarts,9,' },
    ]);
    expect(csvFields(',a,"b,c"')).toEqual(['', 'a', 'b,c']);
    expect(csvFields('just, some prose')).toBeUndefined();
  });

  it('leaves other text to the sentence splitter, including prose that mentions a commit or lists items', () => {
    const prose = 'commit 3f2a9c1 lowered the limit.\n- raise the limit\n- revert 3f2a9c1\nThe pods restarted 41 times. Requests stay at 256Mi.';
    expect(blockPieces(prose)).toEqual(splitSentences(prose).map((text) => ({ text, role: 'prose' })));
    const table = 'name,value,unit\nfree text without enough commas\nmore text';
    expect(blockPieces(table).every((piece) => piece.role === 'prose')).toBe(true);
  });
});

describe('a sentence ending in a colon', () => {
  it('keeps the short line it introduces, so the step is quoted with its lead-in', () => {
    const pieces = blockPieces('Move the messages back with the worker tool:\n\n    worker requeue --from jobs.dlq --to jobs\n\nCheck the queue afterwards.');
    expect(pieces).toEqual([{ text: 'Move the messages back with the worker tool: worker requeue --from jobs.dlq --to jobs', role: 'step' }, { text: 'Check the queue afterwards.', role: 'prose' }]);
  });

  it('does not join a YAML key or a heading with what follows', () => {
    expect(blockPieces('env:\n  - name: POOL').map((piece) => piece.text)).not.toContain('env: - name: POOL');
    expect(blockPieces('## Steps to take:\nRestart the worker.').map((piece) => piece.text)).toContain('Restart the worker.');
  });
});

describe('runbook steps around code blocks', () => {
  it('joins a section heading over a code block, and a lead-in with a long command block, into steps', () => {
    const text = [
      '## 3. Drain the printer, then restart spoolerd',
      '',
      '```bash',
      'spoolctl pause prn-01 && \\',
      '  systemctl restart spoolerd',
      '```',
      '',
      'Compare the queue depth of every printer with its last accepted job before you resume it:',
      '',
      '```bash',
      `spoolctl depth --all --format table --since 1h ${'--printer prn-01 '.repeat(14)}`,
      '```',
      '',
      '## Never',
      '',
      'Do not delete the spool directory.',
    ].join('\n');
    expect(blockPieces(text).map((piece) => [piece.role, piece.text.slice(0, 60)])).toEqual([
      ['step', 'Drain the printer, then restart spoolerd: spoolctl pause prn'],
      ['step', 'Compare the queue depth of every printer with its last accep'],
      ['prose', '## Never'],
      ['prose', 'Do not delete the spool directory.'],
    ]);
  });

  it('leaves a heading over prose alone', () => {
    expect(blockPieces('## Rules\n\nUpdates are applied by a person.').map((piece) => piece.role)).toEqual(['prose', 'prose']);
  });

  it("shows a bullet's gerund phrase after its heading, which states what holds for it, and scores it on its own words", () => {
    const pieces = blockPieces('## Needs sign-off from the print team\n\n- Raising a queue limit above 400 jobs.\n- Do not purge a queue by hand.\n\n## 2. Drain the queue\n\n- Pausing the gateway first.');
    expect(pieces[1]).toEqual({ text: 'Needs sign-off from the print team: Raising a queue limit above 400 jobs.', scored: 'Raising a queue limit above 400 jobs.', role: 'prose' });
    // A full sentence keeps its own words; a numbered step heading states no claim.
    expect(pieces[2].text).toBe('Do not purge a queue by hand.');
    expect(pieces.at(-1)!.text).toBe('Pausing the gateway first.');
    // Prose that opens with a gerund is no list item.
    expect(blockPieces('## Rules\n\nRaising a limit needs a ticket.')[1].text).toBe('Raising a limit needs a ticket.');
  });
});

describe('when a commit was made', () => {
  it('reads an ISO date field and git\'s default format in UTC, the clock of the logs it is compared with', () => {
    expect(commitMoment('2026-03-25T10:00:00+01:00')).toBe('2026-03-25 09:00 UTC');
    expect(commitMoment('2026-04-14T00:20:00+02:00')).toBe('2026-04-13 22:20 UTC');
    expect(commitMoment('2026-04-14T08:20:00Z')).toBe('2026-04-14 08:20 UTC');
    expect(commitMoment('Mon Dec 1 11:15:00 2025 +0100')).toBe('2025-12-01 10:15 UTC');
    expect(commitMoment('Mon Dec 1 11:15:00 2025 -0330')).toBe('2025-12-01 14:45 UTC');
  });

  it('keeps the day of a date without a time or an offset, and nothing of any other form', () => {
    expect(commitMoment('2026-03-25')).toBe('2026-03-25');
    expect(commitMoment('Mon Dec 1 11:15:00 2025')).toBe('2025-12-01');
    expect(commitMoment('yesterday')).toBe('');
  });
});

describe('a lead-in introducing a list', () => {
  it('joins the items closed by semicolons to the lead-in, as one instruction', () => {
    const pieces = blockPieces('3. Both consumers read the key only at start, so both must be restarted:\n   - roll label-api one instance at a time (on lab-01, then lab-02);\n   - restart label-dunning on dun-01.\n   Forgetting label-dunning is the classic mistake.');
    expect(pieces[0]).toEqual({ text: 'Both consumers read the key only at start, so both must be restarted: roll label-api one instance at a time (on lab-01, then lab-02); restart label-dunning on dun-01.', role: 'step' });
    expect(pieces[1]).toEqual({ text: 'Forgetting label-dunning is the classic mistake.', role: 'prose' });
  });
});

describe('a markdown table in a document', () => {
  it('yields each row naming its columns, and neither the header row nor the separator', () => {
    const text = [
      'Alerts that page the spooler rotation:',
      '',
      '| Alert | Fires when | Rotation |',
      '|---|:---:|---|',
      '| `SpoolerQueueStuck` | print.jobs depth above 500 for 10 min | print-oncall |',
      '| `SpoolerDiskFull` | spool disk above 90 % | — |',
      '',
      'Silenced alerts are listed in the freeze calendar.',
    ].join('\n');
    const pieces = blockPieces(text);
    expect(pieces.map((piece) => piece.text)).toEqual([
      'Alerts that page the spooler rotation:',
      'Alert: `SpoolerQueueStuck`, Fires when: print.jobs depth above 500 for 10 min, Rotation: print-oncall',
      'Alert: `SpoolerDiskFull`, Fires when: spool disk above 90 %',
      'Silenced alerts are listed in the freeze calendar.',
    ]);
  });

  it('leaves a pipe in a command alone', () => {
    expect(blockPieces('Count the stuck jobs with `spoolctl list | grep STUCK | wc -l` before you restart.').map((piece) => piece.text)).toEqual(['Count the stuck jobs with `spoolctl list | grep STUCK | wc -l` before you restart.']);
  });
});
