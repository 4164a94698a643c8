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
  ingest <path>              ingest docs, .log files, Kubernetes events (JSON), metrics (CSV) or a git repository;
                             files it leaves out (binary content, unsupported types, executables) are listed with why;
                             with a server running, the files are uploaded to it (not a git repository's history)
  approve <runId> <nodeId>   decide a paused approval gate as an account (--decision approved|rejected
                             --by EMAIL, that account's password in CONTEXT_RUNTIME_PASSWORD)
  cancel <runId>             cancel a running or paused run (its in-flight model calls abort)
  api-key create             create an API key for the HTTP API: --name NAME --role viewer|operator|approver|admin
                             [--sources A,B]; prints the key (shown once)
  audit verify               check the approval log's hash chain (exit 3 when a row was changed or removed)
  retention apply            delete runs, spans and observations older than the config's retention: ages
                             (never a run that is running or waiting at an approval gate)
  runs                       list recent runs
  stats                      cost-model calibration statistics
  mcp                        an MCP server on stdio for MCP clients (tools run, explain, simulate, build_context,
                             approve; resources runs, traces, sources); through the server that holds the data,
                             or as --api-key against --url
  worker                     execute queued runs (execution.engine: graphile_worker, DATABASE_URL) until
                             SIGINT/SIGTERM; --concurrency N jobs at once (default scheduler.concurrency)

Goal from stdin: write "-" as the goal, or give no goal with stdin piped:
  echo "Why did checkout-api fail?" | context-runtime run -
  context-runtime explain < goal.txt

Options:
  --source NAME              restrict to a source (repeatable); with ingest: the source name
  --sources A,B              the same, comma-separated (combines with --source)
  --max-cost-usd N  --max-latency-seconds N  --max-tokens N
  --no-citations             do not require citations   --require-verification
  --analyze  --json  --config PATH  --decision D  --by EMAIL  --comment TEXT  --limit N  --concurrency N
  --api-key KEY              act as this API key (or CONTEXT_RUNTIME_API_KEY) against the server at
  --url URL                  --url / CONTEXT_RUNTIME_URL (default http://127.0.0.1:3000)
  -h, --help                 this text
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
  /** --api-key: the CLI then reaches the server over HTTP as that key, never the data directory. */
  readonly apiKey?: string;
  /** api-key create: the key's name and role. */
  readonly name?: string;
  readonly role?: string;
  readonly url?: string;
  readonly concurrency?: number;
}

const OPTIONS = {
  source: { type: 'string', multiple: true },
  sources: { type: 'string', multiple: true },
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
  'api-key': { type: 'string' },
  name: { type: 'string' },
  role: { type: 'string' },
  url: { type: 'string' },
  concurrency: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * parseArgs explains over several lines and in its own terms ("To specify a positional argument
 * starting with a '-' …"); a user needs one line naming the flag and what to do.
 */
function argumentError(error: unknown): Error {
  const code = (error as { code?: string }).code ?? '';
  const message = error instanceof Error ? error.message : String(error);
  const flag = /'(--?[A-Za-z0-9-]+)/.exec(message)?.[1] ?? 'option';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return invalidInput(flag, 'unknown option (see context-runtime --help)');
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (/does not take an argument/.test(message)) return invalidInput(flag, 'takes no value (it is a switch: write it alone)');
    return invalidInput(flag, `expected a value, e.g. ${flag} VALUE (write ${flag}=VALUE for a value starting with "-")`);
  }
  return error instanceof Error ? error : new Error(message);
}

/**
 * --source (repeatable) and --sources A,B mean the same: the list of sources to restrict to. Both
 * split on commas (a source name cannot hold one), keep the first of duplicates, and refuse an
 * empty name, naming the flag that held it.
 */
function sourceList(source: readonly string[] | undefined, sources: readonly string[] | undefined): readonly string[] | undefined {
  if (source === undefined && sources === undefined) return undefined;
  const names: string[] = [];
  for (const [flag, values] of [['--source', source], ['--sources', sources]] as const) {
    for (const value of values ?? []) {
      const parts = value.split(',').map((part) => part.trim());
      if (parts.some((part) => part === '')) throw invalidInput(flag, `expected source names separated by commas, got "${value}"`);
      for (const part of parts) if (!names.includes(part)) names.push(part);
    }
  }
  return names;
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
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; strict: true; options: typeof OPTIONS }>>;
  try {
    parsed = parseArgs({ args: joinNegativeValues(argv), allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    throw argumentError(error);
  }
  const { values, positionals } = parsed;
  const [command = 'help', ...rest] = positionals;
  const constraints: Record<string, unknown> = {};
  if (values['max-cost-usd'] !== undefined) constraints.max_cost_usd = numberOrRaw(values['max-cost-usd']);
  if (values['max-latency-seconds'] !== undefined) constraints.max_latency_seconds = numberOrRaw(values['max-latency-seconds']);
  if (values['max-tokens'] !== undefined) constraints.max_tokens = numberOrRaw(values['max-tokens']);
  if (values['no-citations']) constraints.require_citations = false;
  if (values['require-verification']) constraints.require_verification = true;
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw invalidInput('--limit', `expected a positive integer, got ${values.limit}`);
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (concurrency !== undefined && (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)) throw invalidInput('--concurrency', `expected an integer from 1 to 64, got ${values.concurrency}`);
  const sources = sourceList(values.source, values.sources);
  // Ingest names the one source it writes; elsewhere the list restricts retrieval.
  if (command === 'ingest' && sources && sources.length > 1) throw invalidInput(values.sources ? '--sources' : '--source', `ingest writes one source; got ${sources.length} (${sources.join(', ')})`);
  return {
    command: values.help ? 'help' : command,
    positionals: rest,
    json: Boolean(values.json),
    analyze: Boolean(values.analyze),
    configPath: values.config,
    sources,
    constraints,
    decision: values.decision,
    by: values.by,
    comment: values.comment,
    limit,
    apiKey: values['api-key'],
    name: values.name,
    role: values.role,
    url: values.url,
    concurrency,
  };
}
