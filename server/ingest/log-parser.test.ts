import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseLog } from './log-parser';
import { countWords } from './word-token-counter';

const deployLog = readFileSync(new URL('../../examples/demo-incident/logs/deploy-checkout-api.log', import.meta.url), 'utf8');

describe('parseLog', () => {
  it('cuts the deploy log into verbatim windows of consecutive lines that cover every line once', () => {
    const chunks = parseLog({ uri: 'logs/deploy-checkout-api.log', content: deployLog }, { countTokens: countWords });
    const lines = deployLog.trimEnd().split('\n');
    expect(chunks.map((chunk) => chunk.text).join('\n')).toBe(lines.join('\n'));
    for (const chunk of chunks) {
      const { lineStart, lineEnd } = chunk.metadata as { lineStart: number; lineEnd: number };
      expect(lineEnd - lineStart + 1).toBeLessThanOrEqual(20);
      expect(chunk.text).toBe(lines.slice(lineStart - 1, lineEnd).join('\n'));
      expect(chunk.locator).toBe(`lines ${lineStart}–${lineEnd}`);
      expect(chunk.title).toBe(`deploy-checkout-api.log lines ${lineStart}–${lineEnd}`);
    }
    const oom = chunks.find((chunk) => chunk.text.includes('Warning OOMKilled pod/checkout-api-7d9f8b6c5-x2k4p'));
    expect(oom?.text).toContain('reason: OOMKilled, exit code 137');
  });

  it('closes a window early when the token budget is reached', () => {
    const content = Array.from({ length: 10 }, (_, index) => `line ${index} ` + 'x '.repeat(48)).join('\n');
    const chunks = parseLog({ uri: 'big.log', content }, { countTokens: countWords, maxTokens: 160 });
    expect(chunks.map((chunk) => chunk.locator)).toEqual(['lines 1–3', 'lines 4–6', 'lines 7–9', 'line 10']);
  });

  it('keeps a single line larger than the budget whole and records first and last timestamps', () => {
    const giant = '2025-06-03T09:31:09Z ' + 'y '.repeat(500);
    const content = ['2025-06-03T09:30:00Z start', giant, '2025-06-03T09:32:00Z end'].join('\n');
    const chunks = parseLog({ uri: 'app.log', content }, { countTokens: countWords, maxTokens: 50 });
    expect(chunks.map((chunk) => chunk.locator)).toEqual(['line 1', 'line 2', 'line 3']);
    expect(chunks[1].text).toBe(giant);
    expect(chunks[0].metadata).toMatchObject({ firstTimestamp: '2025-06-03T09:30:00Z', lastTimestamp: '2025-06-03T09:30:00Z' });
  });

  it('returns no chunks for an empty or blank file', () => {
    expect(parseLog({ uri: 'empty.log', content: '' }, { countTokens: countWords })).toEqual([]);
    expect(parseLog({ uri: 'blank.log', content: '\n\n  \n' }, { countTokens: countWords })).toEqual([]);
  });
});
