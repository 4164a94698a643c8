/**
 * `context-runtime` — the command-line face of the runtime. Errors a user caused print one line
 * naming the problem (exit 2); anything else prints its message (exit 1), never a stack trace
 * unless CONTEXT_RUNTIME_DEBUG is set.
 */
import { resolve } from 'node:path';
import { isContextRuntimeError } from '../runtime/errors';
import { invalidInput } from '../runtime/errors';
import { validateRunRequest } from '../runtime/facade/validate-request';
import { parseCli, USAGE, type CliCommand } from './cli-arguments';
import { progressBar, renderExplainTree, renderRun, renderSimulate } from './cli-output';
import { connectRuntime } from './connect-runtime';
import type { RuntimeClient } from './runtime-client';

const print = (text: string) => process.stdout.write(`${text}\n`);
const asJson = (value: unknown) => JSON.stringify(value, null, 2);

function goalRequest(command: CliCommand): object {
  if (command.positionals.length === 0) throw invalidInput('goal', 'expected a goal, e.g. context-runtime explain "Explain why deployment checkout-api failed"');
  return { goal: command.positionals.join(' '), sources: command.sources, constraints: command.constraints };
}

async function dispatch(command: CliCommand, client: RuntimeClient): Promise<void> {
  switch (command.command) {
    case 'run': {
      const result = await client.run(goalRequest(command));
      print(command.json ? asJson(result) : renderRun(result));
      return;
    }
    case 'explain': {
      const explain = await client.explain(goalRequest(command), command.analyze);
      print(command.json ? asJson(explain) : renderExplainTree(explain));
      return;
    }
    case 'simulate': {
      const simulation = await client.simulate(goalRequest(command));
      print(command.json ? asJson(simulation) : renderSimulate(simulation));
      return;
    }
    case 'ingest': {
      const path = command.positionals[0];
      if (!path) throw invalidInput('path', 'expected a file or folder to ingest');
      const results = await client.ingest(resolve(path), command.sources?.[0], progressBar());
      if (command.json) print(asJson(results));
      else for (const result of results) print(`${result.source}: ${result.changed ? `version ${result.versionId}` : 'unchanged'} — ${result.documents} documents, ${result.chunks} chunks`);
      return;
    }
    case 'approve': {
      const [runId, nodeId] = command.positionals;
      if (!runId || !nodeId) throw invalidInput('runId', 'expected: approve <runId> <nodeId> --decision approved|rejected --by NAME');
      const result = await client.approve(runId, nodeId, command.decision ?? '', command.by ?? '', command.comment ?? '');
      print(command.json ? asJson(result) : renderRun(result));
      return;
    }
    case 'runs': {
      const runs = await client.listRuns(command.limit ?? 20);
      if (command.json) print(asJson(runs));
      else for (const run of runs) print(`${run.createdAt}  ${run.id}  ${run.status.padEnd(17)}  $${run.costUsd.toFixed(4)}  ${run.latencySeconds.toFixed(2)} s  ${run.goal.slice(0, 80)}`);
      return;
    }
    case 'stats': {
      const statistics = await client.statistics();
      if (command.json) print(asJson(statistics));
      else for (const row of statistics) print(`${row.field.padEnd(24)} ${row.intentClass.padEnd(11)} n=${String(row.count).padEnd(5)} MAE=${row.meanAbsoluteError.toPrecision(3).padEnd(9)} coverage=${row.intervalCoverage.toFixed(2)} p90=[${row.p90Interval.map((value) => value.toPrecision(3)).join(', ')}]`);
      return;
    }
    default:
      throw invalidInput('command', `unknown command "${command.command}" (expected run, explain, simulate, ingest, approve, runs, stats)`);
  }
}

export async function main(argv: readonly string[]): Promise<number> {
  let client: RuntimeClient | undefined;
  try {
    const command = parseCli(argv);
    if (command.command === 'help') {
      print(USAGE);
      return 0;
    }
    // A malformed goal or constraint is refused before the database is opened (seconds saved, nothing touched).
    if (['run', 'explain', 'simulate'].includes(command.command)) validateRunRequest(goalRequest(command));
    const connected = await connectRuntime(command.configPath);
    client = connected;
    await dispatch(command, connected);
    return 0;
  } catch (error) {
    if (process.env.CONTEXT_RUNTIME_DEBUG) console.error(error);
    const message = error instanceof Error ? error.message : String(error);
    const argumentError = String((error as { code?: string }).code ?? '').startsWith('ERR_PARSE_ARGS_');
    const userError = (isContextRuntimeError(error) && error.isUserError) || argumentError || (error as { data?: { runtimeError?: unknown } }).data?.runtimeError !== undefined;
    // parseArgs explains over several lines; the first says what is wrong.
    process.stderr.write(`context-runtime: ${argumentError ? message.split('\n')[0] : message}\n`);
    return userError ? 2 : 1;
  } finally {
    await client?.close();
  }
}

const isEntryPoint = process.argv[1] && /cli[\\/]main\.ts$/.test(process.argv[1]);
// Exit once stdout has flushed: process.exit alone truncates output piped past 64 KB.
if (isEntryPoint) main(process.argv.slice(2)).then((code) => process.stdout.write('', () => process.exit(code)));
