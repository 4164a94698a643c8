/**
 * A goal written as a command line or an admin SQL call asks for what it would do when run:
 * `curl -X POST …/connectors/s3-sink/restart`, `airflow tasks clear … --yes`, `redis-cli … FLUSHALL`,
 * `select pg_terminate_backend(4242);`. The clause reading finds no verb at the head of such a
 * sentence (the program name is), so these were answered as questions (issue 10, risk reading).
 * A command is a request when its program is a known operations CLI and one of its words, a long
 * option ("--reset-offsets") or the last segment of a URL it calls is an action verb, or it sends a
 * mutating HTTP method; a SQL call is one when it calls an admin function. Programs
 * read as fillers (kubectl, helm, terraform, …: risk-lexicon.ts) already put their verb at the head.
 */
import { prefixedAction } from './action-words';
import type { GoalToken } from './goal-tokens';
import { ACTION_VERBS, STATEMENT_MARKERS } from './risk-lexicon';

const CLI_PROGRAMS: ReadonlySet<string> = new Set([
  'curl', 'wget', 'http', 'airflow', 'redis-cli', 'systemctl', 'service', 'supervisorctl', 'pm2', 'dbt', 'feast', 'ansible', 'ansible-playbook',
  'kafka-topics', 'kafka-configs', 'kafka-consumer-groups', 'kafka-acls', 'nomad', 'vault', 'consul', 'mysql', 'mongosh', 'etcdctl', 'crictl', 'virsh',
  // Also skipped as fillers before a verb ("psql DROP TABLE …"); read here when options come first.
  'psql', 'aws', 'gcloud', 'az', 'gsutil',
]);
/** HTTP methods that change the resource they are sent to (after `-X` / `--request`). */
const MUTATING_METHODS: ReadonlySet<string> = new Set(['post', 'put', 'patch', 'delete']);
const METHOD_FLAGS: ReadonlySet<string> = new Set(['-x', '--request']);
/** PostgreSQL admin functions that end sessions or change the server when called. */
const ADMIN_FUNCTIONS = /^(?:pg_terminate_backend|pg_cancel_backend|pg_reload_conf|pg_drop_replication_slot|pg_promote|pg_rotate_logfile)\b/;
/** A plain word in the past tense ("returned", "restarted"): the sentence reports, it does not command. */
const PAST_VERB = /^[a-z]{3,}ed$/;
const SQL_CALLERS: ReadonlySet<string> = new Set(['select', 'call', 'perform']);

const isActionWord = (word: string) => ACTION_VERBS.has(word) || prefixedAction(word) !== undefined;
/** "http://host:8083/connectors/s3-sink/restart?x=1" → "restart". */
const lastPathSegment = (word: string) => (/^[a-z][a-z0-9+.-]*:\/\//.test(word) ? (word.split(/[?#]/)[0].split('/').filter(Boolean).pop() ?? '') : '');

/** The command's action ("curl post", "airflow clear", "select pg_terminate_backend"), or undefined when the sentence is no mutating command. */
export function commandLineAction(sentence: readonly GoalToken[], start: number): string | undefined {
  const program = sentence[start];
  if (!program || program.quoted || sentence[sentence.length - 1].endsQuestion) return undefined;
  const rest = sentence.slice(start + 1);
  if (SQL_CALLERS.has(program.lower)) {
    const called = rest.find((token) => ADMIN_FUNCTIONS.test(token.lower));
    return called ? `${program.lower} ${called.lower.replace(/\(.*$/, '')}` : undefined;
  }
  if (!CLI_PROGRAMS.has(program.lower)) return undefined;
  // "curl -X POST to the restart endpoint returned 409": a sentence about a command that was run.
  if (rest.some((token) => STATEMENT_MARKERS.has(token.lower) || PAST_VERB.test(token.lower))) return undefined;
  for (let at = 0; at < rest.length; at++) {
    const word = rest[at].lower;
    if (METHOD_FLAGS.has(word) && MUTATING_METHODS.has(rest[at + 1]?.lower ?? '')) return `${program.lower} ${rest[at + 1].lower}`;
    // "--reset-offsets": a long option named by its action.
    const option = word.startsWith('--') ? word.slice(2).split('=')[0] : '';
    // "terminate-instances", "delete-bucket": a subcommand named by its action.
    const verb = [word, option, option.split('-')[0], word.startsWith('-') ? '' : word.split('-')[0], lastPathSegment(word)].find((candidate) => candidate !== '' && isActionWord(candidate));
    if (verb) return `${program.lower} ${verb}`;
  }
  return undefined;
}
