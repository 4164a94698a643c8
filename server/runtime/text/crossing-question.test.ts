import { describe, expect, it } from 'vitest';
import { askedCrossing, passesCrossing } from './crossing-question';
import { askedDayBound } from './event-anchor';

describe('a question for the first record whose field passed a value', () => {
  it('reads the value and the keys the question names', () => {
    expect(askedCrossing('When did the 5-minute queue_depth of spoold first rise above 40 on 9 May 2026?')).toEqual({ threshold: 40, keys: new Set(['queue_depth']) });
    expect(askedCrossing('At what time on 9 May did the p99 latency of label-api first exceed 250 ms?')).toEqual({ threshold: 250, keys: new Set(['p99']) });
    // No key a record could set, or no value passed: no crossing.
    expect(askedCrossing('When did the queue first grow above forty jobs?')).toBeUndefined();
    expect(askedCrossing('What was the first p99 reading on 9 May?')).toBeUndefined();
  });

  it('passes a record setting a named key above the value, not another key nor a lower value', () => {
    const crossing = askedCrossing('At what time on 9 May did the p99 latency of label-api first exceed 250 ms?')!;
    expect(passesCrossing('2026-05-09T07:20:00Z INFO stats: p50=16ms p99=265ms render_p99=30ms', crossing)).toBe(true);
    expect(passesCrossing('2026-05-09T07:15:00Z INFO stats: p50=16ms p99=240ms render_p99=300ms', crossing)).toBe(false);
  });

  it("is a day's first record: the day's start is the bound", () => {
    expect(askedDayBound('At what time on 9 May 2026 did the p99 latency of label-api first exceed 250 ms?')).toEqual({ side: 'after', day: '2026-05-09' });
  });
});
