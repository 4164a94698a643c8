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
  /** See GitStreamOptions.timeoutMs. */
  readonly timeoutMs?: number;
  /** See GitStreamOptions.signal. */
  readonly signal?: AbortSignal;
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

export interface GitStreamOptions {
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Git is killed when it has written nothing for this long. An idle limit, not a wall-clock one:
   * it ends a hung command (a credential helper, a lock) without failing a long history that is
   * still flowing, whose size the byte caps bound instead.
   */
  readonly timeoutMs?: number;
  /** The ingest stopped (cancel, ingest.timeout_ms): git is killed and the call rejects. */
  readonly signal?: AbortSignal;
}

/**
 * Runs git without a shell (arguments are never interpolated) and hands stdout over as it arrives;
 * `onStdout` returning false stops git (its output is not wanted any more). Resolves with whether
 * it was stopped that way; a failure, or the timeout, rejects with GitCommandError.
 */
export function streamGit(args: readonly string[], options: GitStreamOptions, onStdout: (data: Buffer) => boolean): Promise<{ readonly stopped: boolean }> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const child = spawn('git', [...args], {
      cwd: options.cwd,
      env: { ...serverEnv().variables, NODE_ENV: serverEnv().nodeEnv, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.signal ? { signal: options.signal } : {}),
    });
    let stopped = false;
    let stderr = '';
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, timeoutMs);
    };
    arm();
    child.stdout.on('data', (data: Buffer) => {
      if (stopped) return;
      arm();
      if (!onStdout(data)) {
        stopped = true;
        // Nothing more is read: git ends on the signal instead of producing the rest.
        child.stdout.destroy();
        child.kill('SIGTERM');
      }
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
      if (timedOut) reject(new GitCommandError(args, null, stderr || `no output for ${timeoutMs} ms (ingest.git_timeout_ms)`, new Error('timeout'), true));
      // A stream we stopped ends git by our signal: that is the cut, not a failure.
      else if (!stopped && (code !== 0 || signal)) reject(new GitCommandError(args, code, stderr, new Error(signal ? `killed by ${signal}` : `exit ${code}`)));
      else resolve({ stopped });
    });
  });
}

/** Runs git and keeps at most maxOutputBytes of stdout, cutting (and stopping git) while it streams. */
export async function runGitBounded(args: readonly string[], options: GitCommandOptions): Promise<GitOutput> {
  const maxOutput = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT;
  const parts: Buffer[] = [];
  let kept = 0;
  const { stopped } = await streamGit(args, options, (data) => {
    const room = maxOutput - kept;
    parts.push(data.length > room ? data.subarray(0, room) : data);
    kept += Math.min(room, data.length);
    return data.length <= room;
  });
  // A cut may split a multi-byte character; the decoder replaces the fragment.
  return { stdout: Buffer.concat(parts).toString('utf8'), truncated: stopped };
}

/** runGitBounded's stdout, for commands whose output is small (rev-parse, log of bounded length). */
export async function runGit(args: readonly string[], options: GitCommandOptions): Promise<string> {
  return (await runGitBounded(args, options)).stdout;
}
