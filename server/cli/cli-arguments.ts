/**
 * Command-line parsing for `context-runtime`. Numbers are passed to the runtime as typed (a
 * non-numeric value stays a string) so the runtime's own validation names the bad field.
 */
import { parseArgs } from 'node:util';
import { invalidInput } from '../runtime/errors';

export const USAGE = `Usage: context-runtime <command> [options]

Commands:
  run <goal>                 plan, execute and answer with citations
  explain <goal>             show the plan (EXPLAIN); --analyze runs it and overlays actuals
  simulate <goal>            quote cost, latency and tokens before running
  ingest <path>              ingest docs, .log files, Kubernetes events (JSON), metrics (CSV) or a git repository
  approve <runId> <nodeId>   decide a paused approval gate (--decision approved|rejected --by NAME)
  runs                       list recent runs
  stats                      cost-model calibration statistics

Options:
  --source NAME              restrict to a source (repeatable); with ingest: the source name
  --max-cost-usd N  --max-latency-seconds N  --max-tokens N
  --no-citations             do not require citations   --require-verification
  --analyze  --json  --config PATH  --decision D  --by NAME  --comment TEXT  --limit N
`;

export interface CliCommand {
  readonly command: string;
  readonly positionals: readonly string[];
  readonly json: boolean;
  readonly analyze: boolean;
  readonly configPath?: string;
  readonly sources?: readonly string[];
  readonly constraints: Record<string, unknown>;
  readonly decision?: string;
  readonly by?: string;
  readonly comment?: string;
  readonly limit?: number;
}

const numberOrRaw = (value: string | undefined) => (value === undefined ? undefined : value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value);

/** `--max-cost-usd -1` would read "-1" as an option; join such values so the runtime can name the problem. */
function joinNegativeValues(argv: readonly string[]): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index];
    const next = argv[index + 1];
    if (/^--max-[a-z-]+$/.test(argument) && next !== undefined && /^-[\d.]/.test(next)) {
      joined.push(`${argument}=${next}`);
      index++;
    } else joined.push(argument);
  }
  return joined;
}

export function parseCli(argv: readonly string[]): CliCommand {
  const { values, positionals } = parseArgs({
    args: joinNegativeValues(argv),
    allowPositionals: true,
    strict: true,
    options: {
      source: { type: 'string', multiple: true },
      'max-cost-usd': { type: 'string' },
      'max-latency-seconds': { type: 'string' },
      'max-tokens': { type: 'string' },
      'no-citations': { type: 'boolean' },
      'require-verification': { type: 'boolean' },
      analyze: { type: 'boolean' },
      json: { type: 'boolean' },
      config: { type: 'string' },
      decision: { type: 'string' },
      by: { type: 'string' },
      comment: { type: 'string' },
      limit: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command = 'help', ...rest] = positionals;
  const constraints: Record<string, unknown> = {};
  if (values['max-cost-usd'] !== undefined) constraints.max_cost_usd = numberOrRaw(values['max-cost-usd']);
  if (values['max-latency-seconds'] !== undefined) constraints.max_latency_seconds = numberOrRaw(values['max-latency-seconds']);
  if (values['max-tokens'] !== undefined) constraints.max_tokens = numberOrRaw(values['max-tokens']);
  if (values['no-citations']) constraints.require_citations = false;
  if (values['require-verification']) constraints.require_verification = true;
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw invalidInput('--limit', `expected a positive integer, got ${values.limit}`);
  return {
    command: values.help ? 'help' : command,
    positionals: rest,
    json: Boolean(values.json),
    analyze: Boolean(values.analyze),
    configPath: values.config,
    sources: values.source,
    constraints,
    decision: values.decision,
    by: values.by,
    comment: values.comment,
    limit,
  };
}
