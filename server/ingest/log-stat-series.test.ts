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

  it("states each field's lowest, highest and last value of a recurring stats line, with its time and line, one chunk per field", () => {
    const chunks = logStatSeriesChunks('logs/spooler.log', 'spooler.log', lines, countWords, 3);
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual([3, 4, 5]);
    expect(chunks.map((chunk) => chunk.locator)).toEqual(['stats jobs of jobs p99 failed_share', 'stats p99 of jobs p99 failed_share', 'stats failed_share of jobs p99 failed_share']);
    const [, p99, share] = chunks;
    expect(p99.text).toContain('Stats lines of spooler.log (jobs, p99, failed_share), field p99 over 6 lines from 2026-05-04T09:00:00Z (line 2) to 2026-05-04T09:25:00Z (line 7): ');
    expect(p99.text).toContain('lowest 39ms at 2026-05-04T09:25:00Z (line 7); highest 160ms at 2026-05-04T09:10:00Z (line 4); last 39ms');
    expect(share.text).toContain('lowest 0.5% at 2026-05-04T09:00:00Z (line 2); highest 12.5% at 2026-05-04T09:10:00Z (line 4)');
  });

  it('says when a field left its usual level and when it came back, and a field that never did says nothing of it', () => {
    const [jobs, p99, share] = logStatSeriesChunks('logs/spooler.log', 'spooler.log', lines, countWords, 0);
    expect(share.text).toContain('usual level 0.5% (median of the first quarter of lines), away from it (2x or more either way) from 12.5% at 2026-05-04T09:10:00Z (line 4), back to its usual level at 0.5% at 2026-05-04T09:15:00Z (line 5).');
    expect(p99.text).toContain('from 160ms at 2026-05-04T09:10:00Z (line 4), back to its usual level at 55ms at 2026-05-04T09:15:00Z (line 5)');
    expect(jobs.text).not.toContain('usual level');
    const stuck = Array.from({ length: 8 }, (_, index) => statsLine(index * 5, index < 4 ? 40 : 200, 0.5));
    expect(logStatSeriesChunks('a.log', 'a.log', stuck, countWords, 0)[1].text).toContain('from 200ms at 2026-05-04T09:20:00Z (line 5) and still at the last line.');
  });

  it('makes no series of event lines with one or two figures, of a shape seen fewer than six times, or of lines without a time', () => {
    expect(logStatSeriesChunks('a.log', 'a.log', lines.slice(0, 6), countWords, 0)).toEqual([]);
    expect(logStatSeriesChunks('a.log', 'a.log', Array.from({ length: 8 }, (_, index) => `2026-05-04T09:0${index}:00Z WARN offset=${index} size=4`), countWords, 0)).toEqual([]);
    expect(logStatSeriesChunks('a.log', 'a.log', lines.map((line) => line.slice(21)), countWords, 0)).toEqual([]);
  });

  it('says a field that never changed is the same on every line, and skips a field logged in two units', () => {
    const mixed = Array.from({ length: 6 }, (_, index) => `2026-05-04T09:0${index}:00Z stats queued=0 took=${index % 2 ? '1.5s' : '900ms'} jobs=${index}`);
    const chunks = logStatSeriesChunks('a.log', 'a.log', mixed, countWords, 0);
    expect(chunks.map((chunk) => chunk.locator)).toEqual(['stats queued of queued took jobs', 'stats jobs of queued took jobs']);
    expect(chunks[0].text).toContain('field queued over 6 lines');
    expect(chunks[0].text).toContain(': 0 on every line.');
  });

  it('follows the windows of parseLog, so the lines stay cited as written', () => {
    const chunks = parseLog({ uri: 'logs/spooler.log', content: lines.join('\n') }, { countTokens: countWords });
    expect(chunks.map((chunk) => chunk.locator)).toEqual(['lines 1–8', 'stats jobs of jobs p99 failed_share', 'stats p99 of jobs p99 failed_share', 'stats failed_share of jobs p99 failed_share']);
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual([0, 1, 2, 3]);
  });
});
