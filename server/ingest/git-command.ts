import { spawn } from 'node:child_process';
import { serverEnv } from '../config/env';

export interface GitCommandOptions {
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Bytes of stdout kept. Past it the output is cut while streaming and git is stopped: a `git show`
   * of a vendored initial commit can be hundreds of MiB, and buffering it before truncating held
   * the memory and the event loop for nothing (the chunk keeps ~800 tokens).
   */
  readonly maxOutputBytes?: number;
  /** Wall time before git is killed and the call fails (a hung helper, a pathological repository). */
  readonly timeoutMs?: number;
}

export interface GitOutput {
  readonly stdout: string;
  /** True when stdout passed maxOutputBytes and was cut there. */
  readonly truncated: boolean;
}

export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
    cause: unknown,
    /** Killed after timeoutMs. */
    readonly timedOut = false,
  ) {
    super(`git ${args.join(' ')} failed${exitCode === null ? '' : ` (exit ${exitCode})`}: ${stderr.trim() || String(cause)}`, { cause });
    this.name = 'GitCommandError';
  }
}

const DEFAULT_MAX_OUTPUT = 64 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
/** Enough of stderr to say why; git's own messages are a line or two. */
const MAX_STDERR = 16 * 1024;

/** Runs git without a shell (arguments are never interpolated), keeping at most maxOutputBytes of stdout. */
export function runGitBounded(args: readonly string[], options: GitCommandOptions): Promise<GitOutput> {
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...args], {
      cwd: options.cwd,
      env: { ...serverEnv().variables, NODE_ENV: serverEnv().nodeEnv, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const parts: Buffer[] = [];
    let kept = 0;
    let truncated = false;
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (data: Buffer) => {
      if (truncated) return;
      const room = maxOutput - kept;
      if (data.length > room) {
        parts.push(data.subarray(0, room));
        kept = maxOutput;
        truncated = true;
        // Nothing more is read: git gets SIGPIPE/SIGTERM instead of producing the rest.
        child.stdout.destroy();
        child.kill('SIGTERM');
        return;
      }
      parts.push(data);
      kept += data.length;
    });
    child.stderr.on('data', (data: Buffer) => {
      if (stderr.length < MAX_STDERR) stderr += data.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new GitCommandError(args, null, stderr, error));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new GitCommandError(args, null, stderr || `timed out after ${timeoutMs} ms (ingest.git_timeout_ms)`, new Error('timeout'), true));
        return;
      }
      // A cut stream ends git by our signal: that is the truncation, not a failure.
      if (!truncated && (code !== 0 || signal)) {
        reject(new GitCommandError(args, code, stderr, new Error(signal ? `killed by ${signal}` : `exit ${code}`)));
        return;
      }
      // A cut may split a multi-byte character; the decoder replaces the fragment.
      resolve({ stdout: Buffer.concat(parts).toString('utf8'), truncated });
    });
  });
}

/** runGitBounded's stdout, for commands whose output is small (rev-parse, log of bounded length). */
export async function runGit(args: readonly string[], options: GitCommandOptions): Promise<string> {
  return (await runGitBounded(args, options)).stdout;
}
