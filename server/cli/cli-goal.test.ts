import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readAll, resolveGoal, type GoalInput } from './cli-goal';

const piped = (text: string): GoalInput & { reads: number } => {
  const input = { isTTY: false, reads: 0, read: async () => (input.reads++, text) };
  return input;
};
const terminal: GoalInput = { isTTY: true, read: () => Promise.reject(new Error('a terminal must not be read')) };

describe('resolveGoal', () => {
  it('joins the words after the command and leaves stdin alone', async () => {
    const stdin = piped('ignored');
    expect(await resolveGoal(['why', 'did', 'it', 'fail?'], stdin)).toBe('why did it fail?');
    expect(stdin.reads).toBe(0);
  });

  it('reads the goal from stdin for "-" and when no words are given with stdin piped, trimmed', async () => {
    expect(await resolveGoal(['-'], piped('Explain why deployment checkout-api failed\n'))).toBe('Explain why deployment checkout-api failed');
    expect(await resolveGoal([], piped('  What changed?\n\n'))).toBe('What changed?');
  });

  it('says what is missing instead of waiting on a terminal or taking an empty pipe', async () => {
    await expect(resolveGoal([], terminal)).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'goal', message: expect.stringMatching(/^goal: expected a goal/) });
    await expect(resolveGoal(['-'], terminal)).rejects.toThrow(/^goal: stdin is a terminal: pipe the goal in/);
    await expect(resolveGoal(['-'], piped(' \n'))).rejects.toThrow('goal: stdin was empty: expected the goal text');
    await expect(resolveGoal([], piped(''))).rejects.toThrow(/^goal: expected a goal/);
    await expect(resolveGoal(['why', '-'], piped('x'))).rejects.toThrow(/cannot be combined with other words/);
  });
});

describe('readAll', () => {
  it('reads a stream to its end as UTF-8 and refuses more than the limit', async () => {
    const stream = new PassThrough();
    const text = readAll(stream);
    stream.write(Buffer.from('Café '));
    stream.end(Buffer.from('☕'));
    expect(await text).toBe('Café ☕');
    const big = new PassThrough();
    const refused = readAll(big, 8);
    big.end('0123456789');
    await expect(refused).rejects.toThrow(/^goal: stdin holds more than/);
  });
});
