import { execFile } from 'node:child_process';
import { serverEnv } from '../config/env';

export interface GitCommandOptions {
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  /** `git show` of a large initial commit easily passes Node's 1 MiB default. */
  readonly maxBuffer?: number;
}

export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
    cause: unknown,
  ) {
    super(`git ${args.join(' ')} failed${exitCode === null ? '' : ` (exit ${exitCode})`}: ${stderr.trim() || String(cause)}`, { cause });
    this.name = 'GitCommandError';
  }
}

const DEFAULT_MAX_BUFFER = 64 * 1024 * 1024;

/** Runs git without a shell (arguments are never interpolated) and resolves with stdout. */
export function runGit(args: readonly string[], options: GitCommandOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      {
        cwd: options.cwd,
        env: { ...serverEnv().variables, NODE_ENV: serverEnv().nodeEnv, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C', ...options.env },
        maxBuffer: options.maxBuffer ?? DEFAULT_MAX_BUFFER,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error) {
          const code = typeof (error as { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : null;
          reject(new GitCommandError(args, code, String(stderr ?? ''), error));
          return;
        }
        resolve(stdout);
      },
    );
  });
}
