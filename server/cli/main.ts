/**
 * `context-runtime` — the command-line face of the runtime. Errors a user caused print one line
 * naming the problem (exit 2); anything else prints its message (exit 1), never a stack trace
 * unless CONTEXT_RUNTIME_DEBUG is set.
 */
import { resolve } from 'node:path';
import { serverEnv } from '../config/env';
import { ContextRuntimeError, isContextRuntimeError } from '../runtime/errors';
import { invalidInput } from '../runtime/errors';
import { validateRunRequest } from '../runtime/facade/validate-request';
import { parseCli, USAGE, type CliCommand } from './cli-arguments';
import { type GoalInput, processStdin, resolveGoal } from './cli-goal';
import { progressBar, renderAuditVerification, renderExplainTree, renderIngest, renderRun, renderSimulate, renderSkipped, renderStatisticsRow } from './cli-output';
import { connectRuntime } from './connect-runtime';
import type { RuntimeClient } from './runtime-client';
import { runMcpCommand } from './mcp-command';
import { runWorker } from './worker-command';
import { INTERRUPTED_EXIT_CODE, type Interrupt, interruptFrom, interruptOnSigint } from './cli-interrupt';

const print = (text: string) => process.stdout.write(`${text}\n`);
const asJson = (value: unknown) => JSON.stringify(value, null, 2);

const GOAL_COMMANDS = ['run', 'explain', 'simulate'];

function goalRequest(command: CliCommand, goal: string): object {
  return { goal, sources: command.sources, constraints: command.constraints };
}

/** Resolves to the exit code when it is not 0. */
async function dispatch(command: CliCommand, goal: string, client: RuntimeClient, interrupt: () => Interrupt): Promise<number | void> {
  switch (command.command) {
    case 'run': {
      const result = await client.run(goalRequest(command, goal));
      print(command.json ? asJson(result) : renderRun(result));
      return;
    }
    case 'explain': {
      const explain = await client.explain(goalRequest(command, goal), command.analyze);
      print(command.json ? asJson(explain) : renderExplainTree(explain));
      return;
    }
    case 'simulate': {
      const simulation = await client.simulate(goalRequest(command, goal));
      print(command.json ? asJson(simulation) : renderSimulate(simulation));
      return;
    }
    case 'ingest': {
      const path = command.positionals[0];
      if (!path) throw invalidInput('path', 'expected a file or folder to ingest');
      const report = await ingestInterruptibly(client, resolve(path), command.sources?.[0], interrupt());
      if (command.json) print(asJson(report));
      else {
        print(renderIngest(report));
        // Warnings on stderr: stdout stays the list of what was written.
        for (const line of renderSkipped(report.skipped, process.cwd())) process.stderr.write(`${line}\n`);
      }
      return;
    }
    case 'approve': {
      const [runId, nodeId] = command.positionals;
      if (!runId || !nodeId) throw invalidInput('runId', 'expected: approve <runId> <nodeId> --decision approved|rejected --by EMAIL (password in CONTEXT_RUNTIME_PASSWORD)');
      const credentials = { by: command.by, password: serverEnv().cliPassword };
      const result = await client.approve(runId, nodeId, command.decision ?? '', credentials, command.comment ?? '');
      print(command.json ? asJson(result) : renderRun(result));
      return;
    }
    case 'cancel': {
      const [runId] = command.positionals;
      if (!runId) throw invalidInput('runId', 'expected: cancel <runId>');
      const result = await client.cancel(runId);
      print(command.json ? asJson(result) : renderRun(result));
      return;
    }
    case 'audit': {
      if (command.positionals[0] !== 'verify') throw invalidInput('command', 'expected: audit verify');
      const verification = await client.verifyAuditLog();
      if (command.json) print(asJson(verification));
      else print(renderAuditVerification(verification));
      // A broken chain is the answer the command exists to give, not a usage error: exit 3 says it.
      return verification.intact ? 0 : 3;
    }
    case 'runs': {
      const runs = await client.listRuns(command.limit ?? 20);
      if (command.json) print(asJson(runs));
      else for (const run of runs) print(`${run.createdAt}  ${run.id}  ${run.status.padEnd(17)}  $${run.costUsd.toFixed(4)}  ${run.latencySeconds.toFixed(2)} s  ${run.goal.slice(0, 80)}`);
      return;
    }
    case 'api-key': {
      if (command.positionals[0] !== 'create') throw invalidInput('command', 'expected: api-key create --name NAME --role ROLE [--sources A,B]');
      const created = await client.createApiKey({ name: command.name ?? '', role: command.role ?? '', sources: command.sources ?? null });
      // The key alone on stdout, so `export CONTEXT_RUNTIME_API_KEY=$(context-runtime api-key create …)` works.
      if (command.json) print(asJson(created));
      else {
        print(created.key);
        process.stderr.write(`created API key ${created.record.name} (${created.record.prefix}…, role ${created.record.role}, sources ${created.record.sources?.join(', ') ?? 'all the role may read'}): shown once, keep it now\n`);
      }
      return;
    }
    case 'retention': {
      if (command.positionals[0] !== 'apply') throw invalidInput('command', 'expected: retention apply');
      const report = await client.applyRetention();
      print(command.json ? asJson(report) : `deleted ${report.deletedRuns} runs, ${report.deletedSpans} spans, ${report.deletedObservations} observations; kept ${report.keptRuns} old runs (running, waiting at an approval gate, or in the approval log)`);
      return;
    }
    case 'stats': {
      const statistics = await client.statistics();
      if (command.json) print(asJson(statistics));
      else for (const row of statistics) print(renderStatisticsRow(row));
      return;
    }
    default:
      throw invalidInput('command', `unknown command "${command.command}" (expected run, explain, simulate, ingest, approve, cancel, audit, retention, runs, stats, api-key, worker, mcp)`);
  }
}

/** Ctrl-C stops the ingest cleanly (cli-interrupt.ts); said as CANCELLED whichever error the stop surfaced as (an aborted request, a runtime error). */
async function ingestInterruptibly(client: RuntimeClient, path: string, source: string | undefined, interrupt: Interrupt) {
  try {
    return await client.ingest(path, source, progressBar(), interrupt.signal);
  } catch (error) {
    if (!interrupt.signal.aborted) throw error;
    const where = client.via === 'this process' ? 'here' : `on the server at ${client.via}`;
    throw new ContextRuntimeError('CANCELLED', `ingest of ${path} cancelled (Ctrl-C); ${where}, no source is left half-written: one cut short keeps its previous version`, { cause: error });
  } finally {
    interrupt.dispose();
  }
}

/**
 * `stdin`: where a goal written "-" (or omitted, with stdin piped) is read from; `interrupt`: a
 * signal standing for Ctrl-C (tests pass their own; else SIGINT is listened to during an ingest).
 */
export async function main(argv: readonly string[], io: { readonly stdin?: GoalInput; readonly interrupt?: AbortSignal } = {}): Promise<number> {
  let client: RuntimeClient | undefined;
  let debug = false;
  try {
    const command = parseCli(argv);
    if (command.command === 'help') {
      print(USAGE);
      return 0;
    }
    // The environment is checked before anything else runs: a bad variable is named here, not deep in an adapter.
    debug = serverEnv().debug;
    // A worker opens the shared database itself (it executes runs; it is nobody's client).
    if (command.command === 'worker') return await runWorker({ configPath: command.configPath, concurrency: command.concurrency });
    // An MCP server on stdio: it serves until its client closes stdin, and stdout is the protocol's.
    if (command.command === 'mcp') return await runMcpCommand(command.configPath, { apiKey: command.apiKey ?? serverEnv().cliApiKey, url: command.url ?? serverEnv().cliServerUrl });
    const goal = GOAL_COMMANDS.includes(command.command) ? await resolveGoal(command.positionals, io.stdin ?? processStdin()) : '';
    // A malformed goal or constraint is refused before the database is opened (seconds saved, nothing touched).
    if (GOAL_COMMANDS.includes(command.command)) validateRunRequest(goalRequest(command, goal));
    const connected = await connectRuntime(command.configPath, { apiKey: command.apiKey ?? serverEnv().cliApiKey, url: command.url ?? serverEnv().cliServerUrl });
    client = connected;
    if (connected.notice) process.stderr.write(`context-runtime: ${connected.notice}\n`);
    const interrupt = () => (io.interrupt ? interruptFrom(io.interrupt) : interruptOnSigint((line) => process.stderr.write(`\n${line}\n`)));
    return (await dispatch(command, goal, connected, interrupt)) ?? 0;
  } catch (error) {
    if (debug) console.error(error);
    const message = error instanceof Error ? error.message : String(error);
    const argumentError = String((error as { code?: string }).code ?? '').startsWith('ERR_PARSE_ARGS_');
    const userError = (isContextRuntimeError(error) && error.isUserError) || argumentError || (error as { data?: { runtimeError?: unknown } }).data?.runtimeError !== undefined;
    // parseArgs explains over several lines; the first says what is wrong.
    process.stderr.write(`context-runtime: ${argumentError ? message.split('\n')[0] : message}\n`);
    if (isContextRuntimeError(error) && error.code === 'CANCELLED') return INTERRUPTED_EXIT_CODE;
    return userError ? 2 : 1;
  } finally {
    await client?.close();
  }
}

const isEntryPoint = process.argv[1] && /cli[\\/]main\.ts$/.test(process.argv[1]);
// Exit once stdout has flushed: process.exit alone truncates output piped past 64 KB.
if (isEntryPoint) main(process.argv.slice(2)).then((code) => process.stdout.write('', () => process.exit(code)));
