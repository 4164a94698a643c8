import { describe, expect, it } from 'vitest';
import { askedMoments, askedMonths, askedWindows, instantInWindows, namesTimeOfDay, statedMoments } from './moment-terms';

describe('moment terms', () => {
  it('reads the dates and times of a question in the notation logs and metrics use', () => {
    expect(askedMoments('How many jobs were queued at 09:00 UTC on 14 April 2026?')).toEqual(['2026-04-14', '04-14', '2026-04-14t09:00', '04-14t09:00']);
    expect(askedMoments('How deep was the queue at midnight at the start of Sunday 8 March 2026?')).toEqual(['2026-03-08', '03-08', '2026-03-08t00:00', '03-08t00:00']);
    expect(askedMoments('What failed on April 3, 2026?')).toEqual(['2026-04-03', '04-03']);
    expect(askedMoments('Which tasks came back on Monday 9 March?')).toEqual(['03-09']);
    expect(askedMoments('What changed on 2026-03-06?')).toEqual(['2026-03-06', '03-06']);
    expect(askedMoments('What did kafka-2 log at 2026-03-10T10:31?')).toEqual(['2026-03-10', '03-10', '2026-03-10t10:31', '03-10t10:31']);
    expect(askedWindows('What did kafka-2 log at 2026-03-10 10:31?')).toEqual([{ from: '2026-03-10T10:01', to: '2026-03-10T11:01' }]);
    expect(askedMoments('How many replicas run in production?')).toEqual([]);
    expect(askedMoments('Was it down for 30 may-days?')).toEqual([]);
  });

  it('reads the dates and times a line states, as the day and as the day in any year', () => {
    expect(statedMoments('2026-04-14T09:00:51.366Z INFO queue depth 12')).toEqual(new Set(['2026-04-14', '2026-04-14t09:00', '04-14', '04-14t09:00']));
    expect(statedMoments('[2026-03-09 08:14:31,523] INFO tasks running')).toContain('03-09t08:14');
    expect(statedMoments('The queue was full on 14 April; it drained by noon.')).toEqual(new Set(['04-14']));
    expect(statedMoments('The queue drained quickly.').size).toBe(0);
    // A timeline entry: the clock time written right after a day in words is that day's instant.
    expect(statedMoments('Mar 9 08:05 — policy prefix fixed.')).toEqual(new Set(['03-09', '03-09t08:05']));
    expect(statedMoments('On 4 May, 23:10 the queue filled up.')).toContain('05-04t23:10');
    expect(statedMoments('Feb 3 — retention lowered to 24 hours.')).toEqual(new Set(['02-03']));
  });

  it('gives a part of the day named on one day its hours, and reads whether a stated instant falls in a window', () => {
    const windows = askedWindows('How much memory was the cache using on the evening of 9 April, and what changed that afternoon?');
    expect(windows).toEqual([{ from: '04-09T17:00', to: '04-09T23:59', anyYear: true }, { from: '04-09T12:00', to: '04-09T17:59', anyYear: true }]);
    expect(askedWindows('What ran on the morning of 9 April 2026?')).toEqual([{ from: '2026-04-09T06:00', to: '2026-04-09T11:59' }]);
    expect(askedWindows('What ran each morning between 9 and 12 April?')).toEqual([]);
    expect(instantInWindows('2026-04-09t18:00', windows)).toBe(true);
    expect(instantInWindows('04-10t06:00', windows)).toBe(false);
    expect(instantInWindows('04-09', windows)).toBe(false);
  });

  it('reads 12-hour times on the 24-hour clock the stamps use', () => {
    // "9:05 pm" was read as 09:05 (its digits) and "6 pm" not at all: the question then pointed at the morning's lines, or at none.
    expect(askedMoments('What happened at 9:05 pm on 14 April 2026?')).toEqual(['2026-04-14', '04-14', '2026-04-14t21:05', '04-14t21:05']);
    expect(askedMoments('How far behind was the sink at 6 pm UTC on 7 March?')).toEqual(['03-07', '03-07t18:00']);
    expect(askedMoments('What was queued at 6pm on 7 March?')).toEqual(['03-07', '03-07t18:00']);
    expect(askedMoments('What ran at 12 am on 7 March, and at 12 p.m.?')).toEqual(['03-07', '03-07t00:00', '03-07t12:00']);
    expect(askedMoments('What ran at 12:30 a.m. on 7 March?')).toEqual(['03-07', '03-07t00:30']);
    expect(askedWindows('What did the broker log at 11:45 PM on 14 April 2026?')).toEqual([{ from: '2026-04-14T23:15', to: '2026-04-15T00:15' }]);
    expect(statedMoments('Mar 7 6:05 pm — sink restarted.')).toEqual(new Set(['03-07', '03-07t18:05']));
    expect(namesTimeOfDay('How far behind was it at 6 pm?')).toBe(true);
    // Not a time: a count of amps, "I am", a 13 o'clock.
    expect(namesTimeOfDay('The breaker trips at 16 amps, I am told.')).toBe(false);
    expect(askedMoments('Which job ran at 13 pm on 7 March?')).toEqual(['03-07']);
  });

  it('reads a day typed in digits after a preposition of time or with its year, and not a count or a duration', () => {
    expect(askedMoments('Once the fix was live on 14/04, when did eta-api report again?')).toEqual(['04-14']);
    expect(askedMoments('What happened on 04/14/2026 at 10:00?')).toEqual(['2026-04-14', '04-14', '2026-04-14t10:00', '04-14t10:00']);
    expect(askedMoments('Which jobs failed on 14.04.2026?')).toEqual(['2026-04-14', '04-14']);
    // Both numbers could be the month: both days are asked, and a line states only one of them.
    expect(askedMoments('What broke on 06/03?')).toEqual(['06-03', '03-06']);
    expect(askedMoments('Were 4/4 tasks running since 1.5 hours?')).toEqual([]);
  });

  it('reads midday as noon', () => {
    expect(askedMoments('By midday UTC on 24 March, how old was the mart?')).toEqual(['03-24', '03-24t12:00']);
  });

  it('gives each asked instant a window of half an hour either side, and a day without a time none', () => {
    // Across midnight, and the any-year form dropped when the year is given.
    expect(askedWindows('How deep was the queue at midnight at the start of Sunday 8 March 2026?')).toEqual([{ from: '2026-03-07T23:30', to: '2026-03-08T00:30' }]);
    expect(askedWindows('What did the broker log at 09:00 UTC on 14 April 2026?')).toEqual([{ from: '2026-04-14T08:30', to: '2026-04-14T09:30' }]);
    expect(askedWindows('What did the broker log at 10:31 on 10 March?')).toEqual([{ from: '03-10T10:01', to: '03-10T11:01', anyYear: true }]);
    expect(askedWindows('Which tasks came back on Monday 9 March?')).toEqual([]);
    expect(askedWindows('What runs at 09:00 every day?')).toEqual([]);
  });

  it('reads a month named as the frame without a day (fresh f110)', () => {
    expect(askedMonths('In February the hourly render failed now and then. What was timing out?')).toEqual(['02']);
    expect(askedMonths('in early March the sink broke; during March 2026 what else failed?')).toEqual(['03']);
    expect(askedMonths('What failed in March 6 2026, and on 14 April?')).toEqual([]);
    expect(askedMonths('Why did the render fail?')).toEqual([]);
  });
});
