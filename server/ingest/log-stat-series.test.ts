import { describe, expect, it } from 'vitest';
import { parseLog } from './log-parser';
import { logStatSeriesChunks } from './log-stat-series';
import { countWords } from './word-token-counter';

const statsLine = (minute: number, p99: number, share: number) =>
  `2026-05-04T09:${String(minute).padStart(2, '0')}:00Z INFO spooler stats: last 5m: jobs=${100 + minute} p99=${p99}ms failed_share=${share}%`;

describe('log stat series', () => {
  const lines = [
    '2026-05-04T08:59:10Z INFO spooler started pool=6',
    ...[40, 42, 160, 55, 41, 39].map((p99, index) => statsLine(index * 5, p99, index === 2 ? 12.5 : 0.5)),
    '2026-05-04T09:31:00Z WARN spooler printer lp-3 offline offset=9912 size=4',
  ];

  it("states each field's lowest, highest and last value of a recurring stats line, with its time and line", () => {
    const [chunk] = logStatSeriesChunks('logs/spooler.log', 'spooler.log', lines, countWords, 3);
    expect(chunk.ordinal).toBe(3);
    expect(chunk.locator).toBe('stats jobs p99 failed_share');
    expect(chunk.text).toContain('Stats lines of spooler.log (jobs, p99, failed_share): 6 lines from 2026-05-04T09:00:00Z (line 2) to 2026-05-04T09:25:00Z (line 7).');
    expect(chunk.text).toContain('p99: lowest 39ms at 2026-05-04T09:25:00Z (line 7); highest 160ms at 2026-05-04T09:10:00Z (line 4); last 39ms');
    expect(chunk.text).toContain('failed_share: lowest 0.5% at 2026-05-04T09:00:00Z (line 2); highest 12.5% at 2026-05-04T09:10:00Z (line 4)');
  });

  it('makes no series of event lines with one or two figures, of a shape seen fewer than six times, or of lines without a time', () => {
    expect(logStatSeriesChunks('a.log', 'a.log', lines.slice(0, 6), countWords, 0)).toEqual([]);
    expect(logStatSeriesChunks('a.log', 'a.log', Array.from({ length: 8 }, (_, index) => `2026-05-04T09:0${index}:00Z WARN offset=${index} size=4`), countWords, 0)).toEqual([]);
    expect(logStatSeriesChunks('a.log', 'a.log', lines.map((line) => line.slice(21)), countWords, 0)).toEqual([]);
  });

  it('says a field that never changed is the same on every line, and skips a field logged in two units', () => {
    const mixed = Array.from({ length: 6 }, (_, index) => `2026-05-04T09:0${index}:00Z stats queued=0 took=${index % 2 ? '1.5s' : '900ms'} jobs=${index}`);
    const [chunk] = logStatSeriesChunks('a.log', 'a.log', mixed, countWords, 0);
    expect(chunk.text).toContain('queued: 0 on every line.');
    expect(chunk.text).not.toContain('took:');
  });

  it('follows the windows of parseLog, so the lines stay cited as written', () => {
    const chunks = parseLog({ uri: 'logs/spooler.log', content: lines.join('\n') }, { countTokens: countWords });
    expect(chunks.map((chunk) => chunk.locator)).toEqual(['lines 1–8', 'stats jobs p99 failed_share']);
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual([0, 1]);
  });
});
