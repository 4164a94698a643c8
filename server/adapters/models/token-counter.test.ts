import { describe, expect, it } from 'vitest';
import { countMessageTokens, countTokens, createTokenCounter } from './token-counter';

describe('token counter', () => {
  it('counts real BPE tokens in o200k_base by default and cl100k_base on request', () => {
    // Reference counts from tiktoken: "hello world" is 2 tokens in both vocabularies.
    expect(countTokens('hello world')).toBe(2);
    expect(countTokens('hello world', 'cl100k_base')).toBe(2);
    const log = 'pod/checkout-api-7d9f6c5b8-x2kq9 Back-off restarting failed container (reason: OOMKilled, exit code 137)';
    expect(countTokens(log)).toBeGreaterThan(20);
    expect(countTokens(log)).not.toBe(countTokens(log, 'cl100k_base'));
    expect(countTokens('')).toBe(0);
  });

  it('treats special-token text as data instead of throwing', () => {
    expect(countTokens('before <|endoftext|> after')).toBeGreaterThan(3);
  });

  it('gives the same answer from the memo as from the encoder', () => {
    const text = 'Memory cgroup out of memory: Killed process 4121 (node)';
    const first = countTokens(text);
    expect(countTokens(text)).toBe(first);
    expect(createTokenCounter()(text)).toBe(first);
  });

  it('adds the chat framing of 3 tokens per message plus 3 for the reply', () => {
    const messages = [{ content: 'hello world' }, { content: 'hello world' }];
    expect(countMessageTokens(messages)).toBe(3 + 2 * (3 + 2));
  });
});
