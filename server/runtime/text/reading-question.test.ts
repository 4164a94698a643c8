import { describe, expect, it } from 'vitest';
import { asksReading } from './reading-question';

describe('asksReading', () => {
  it('reads an amount, a level or a count asked for as a reading', () => {
    expect(asksReading('How full was queue-2 disk at noon UTC on 3 May?')).toBe(true);
    expect(asksReading('What was the consumer lag of the label-printer sink at 18:00?')).toBe(true);
  });

  it('reads whether a series stood above or below its threshold as a reading (fresh f229)', () => {
    expect(asksReading('Was the label-printer sink still above the LabelQueueLagHigh threshold at 12:00 UTC on 9 May 2026?')).toBe(true);
    expect(asksReading('Is the spool cache under its memory limit now?')).toBe(true);
  });

  it('reads no other question as one', () => {
    expect(asksReading('Why did the label-printer sink stop on 2 May?')).toBe(false);
    expect(asksReading('Which commit raised the threshold above 50000?')).toBe(false);
  });
});
