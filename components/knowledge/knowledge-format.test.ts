import { describe, expect, it } from 'vitest';
import { contradictionRows, formatInstant, formatPeriod, instantOfLocal, shortId, sidesOf, statusTone } from './knowledge-format';

describe('knowledge page formatting', () => {
  it('prints instants in UTC with a fixed layout', () => {
    expect(formatInstant('2025-06-02T18:41:00+02:00')).toBe('2025-06-02 16:41:00');
    expect(formatInstant(null)).toBe('—');
  });

  it('shortens ids after their kind prefix', () => {
    expect(shortId('ver_78c85967ce973469a5721d39')).toBe('ver_78c85967ce97…');
    expect(shortId('chk_abc')).toBe('chk_abc');
  });

  it('prints valid-time periods with open ends', () => {
    expect(formatPeriod('2025-05-20T09:40:00Z', '2025-06-03T08:52:00Z')).toBe('2025-05-20 09:40:00 → 2025-06-03 08:52:00');
    expect(formatPeriod('2025-05-20T09:40:00Z', null)).toBe('2025-05-20 09:40:00 → now');
    expect(formatPeriod(null, '2025-06-02T16:41:00Z')).toBe('… → 2025-06-02 16:41:00');
    expect(formatPeriod(null, null)).toBe('always');
  });

  it('tones statuses: stale is a danger, superseded is only history', () => {
    expect(['current', 'superseded', 'stale', 'expired', null].map(statusTone)).toEqual(['ok', 'muted', 'danger', 'warning', 'muted']);
  });

  it('groups the facts of a contradiction into one side per value and source', () => {
    const facts = [
      { value: '256Mi', sourceName: 'demo-events', id: 1 },
      { value: '256Mi', sourceName: 'demo-logs', id: 2 },
      { value: '256Mi', sourceName: 'demo-logs', id: 3 },
      { value: '512Mi', sourceName: 'demo-docs', id: 4 },
    ];
    expect(sidesOf(facts).map((side) => [side.value, side.sourceName, side.facts.map((fact) => fact.id)])).toEqual([
      ['256Mi', 'demo-events', [1]],
      ['256Mi', 'demo-logs', [2, 3]],
      ['512Mi', 'demo-docs', [4]],
    ]);
  });

  it('lays each group out as one row per side, the first spanning the rest', () => {
    const groups = [
      { subject: 'api', facts: [{ value: '256Mi', sourceName: 'logs' }, { value: '512Mi', sourceName: 'docs' }, { value: '256Mi', sourceName: 'logs' }] },
      { subject: 'db', facts: [{ value: '1', sourceName: 'docs' }] },
    ];
    expect(contradictionRows(groups).map((row) => [row.group.subject, row.side.value, row.side.facts.length, row.span])).toEqual([
      ['api', '256Mi', 2, 2],
      ['api', '512Mi', 1, 0],
      ['db', '1', 1, 1],
    ]);
  });

  it('reads datetime-local values as UTC instants for the as-of inputs', () => {
    expect(instantOfLocal('2025-06-02T16:41')).toBe('2025-06-02T16:41:00.000Z');
    expect(instantOfLocal('2025-06-02T16:41:05')).toBe('2025-06-02T16:41:05.000Z');
    expect(instantOfLocal('  ')).toBeUndefined();
    expect(instantOfLocal('tomorrow')).toBe('tomorrow');
  });
});
