/**
 * Where `run`, `explain` and `simulate` get their goal: the words after the command, or stdin when
 * the goal is "-" or when there are no words and stdin is piped (`context-runtime run < goal.txt`),
 * so a long or generated goal needs no shell quoting. A terminal on stdin is never read: a user
 * who forgot the goal gets the error, not a silent wait for input.
 */
import { invalidInput } from '../runtime/errors';

/** Far above the runtime's 16,000-character goal limit, so its error (naming the size) still applies; a bound so a piped file cannot fill memory. */
export const MAX_STDIN_BYTES = 1024 * 1024;

export interface GoalInput {
  /** True when stdin is a terminal (then it is never read). */
  readonly isTTY: boolean;
  read(): Promise<string>;
}

const MISSING_GOAL = 'expected a goal, e.g. context-runtime explain "Explain why deployment checkout-api failed" (or "-" to read it from stdin)';

export async function resolveGoal(positionals: readonly string[], input: GoalInput): Promise<string> {
  const fromStdin = positionals.length === 1 && positionals[0] === '-';
  if (positionals.includes('-') && !fromStdin) throw invalidInput('goal', '"-" reads the goal from stdin and cannot be combined with other words');
  if (!fromStdin && positionals.length > 0) return positionals.join(' ');
  if (input.isTTY) throw invalidInput('goal', fromStdin ? 'stdin is a terminal: pipe the goal in, e.g. echo "Why did checkout-api fail?" | context-runtime run -' : MISSING_GOAL);
  const goal = (await input.read()).trim();
  if (goal === '') throw invalidInput('goal', fromStdin ? 'stdin was empty: expected the goal text' : MISSING_GOAL);
  return goal;
}

/** Reads a stream to its end as UTF-8, refusing more than `limitBytes`. */
export function readAll(stream: NodeJS.ReadableStream, limitBytes = MAX_STDIN_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > limitBytes) {
        stream.removeAllListeners('data');
        stream.pause();
        reject(invalidInput('goal', `stdin holds more than ${limitBytes / 1024 / 1024} MiB; a goal is a question, not a document`));
        return;
      }
      parts.push(buffer);
    });
    stream.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    stream.on('error', reject);
  });
}

/** This process's stdin as a GoalInput. Lazy: touching process.stdin opens it, and a goal given as words never needs it. */
export function processStdin(): GoalInput {
  return {
    get isTTY() {
      return Boolean(process.stdin.isTTY);
    },
    read: () => readAll(process.stdin),
  };
}
