import { describe, expect, it } from 'vitest';
import { intentShapeOf } from '../plancache/plan-cache-key';
import { askedDayBound, askedEventAnchor, eventMomentIn, searchWindows, statesOnlyOtherDays } from './event-anchor';
import { contentTerms } from './text-terms';

/** A reading asked at the moment of another event (issue 10; made-up print-spooler goals). */
describe('the event a reading question is anchored to', () => {
  it('reads the side and the event words off the question, and leaves questions naming their own time alone', () => {
    expect(askedEventAnchor('Right before the spooler was restarted on 9 May, how many jobs were queued?')).toMatchObject({ side: 'before' });
    expect(askedEventAnchor('How deep was the queue shortly after the printers came back on 9 May?')).toMatchObject({ side: 'after' });
    const anchor = askedEventAnchor('How deep was the queue around the time LabelQueueDeep paged on 2 May, and when was it acknowledged?')!;
    expect(anchor.side).toBe('around');
    expect([...anchor.eventTerms]).toEqual(['labelqueuedeep', 'page']);
    expect([...anchor.days]).toEqual(['05-02']);
    expect(askedEventAnchor('On 2 May, when did the printer last finish a batch before printing was refused?')).toMatchObject({ side: 'before', days: new Set(['05-02']) });
    expect(askedEventAnchor('When did the queue first drain after the printers came back?')).toMatchObject({ side: 'after' });
    expect(askedEventAnchor('How deep was the label queue when LabelQueueDeep went off on 2 May?')).toMatchObject({ side: 'around', names: new Set(['labelqueuedeep']) });
    expect(askedEventAnchor('How deep was the label queue on 2 May, and when did LabelQueueDeep go off?')).toBeUndefined();
    expect(askedEventAnchor('How deep was the queue around 18:00 on 2 May?')).toBeUndefined();
    expect(askedEventAnchor('Who acknowledged the page around the time the sink stopped?')).toBeUndefined();
  });

  it('searches the stamped sources over the whole day of the event, and only the instants a goal names when it names one', () => {
    expect(searchWindows('How deep was the queue around the time LabelQueueDeep paged on 2 May?')).toEqual([{ from: '05-02T00:00', to: '05-02T23:59', anyYear: true }]);
    expect(searchWindows('Right before the spooler was restarted on 9 May 2026, how many jobs were queued?')).toEqual([{ from: '2026-05-09T00:00', to: '2026-05-09T23:59' }]);
    expect(searchWindows('How deep was the queue at 18:00 on 2 May 2026?')).toEqual([{ from: '2026-05-02T17:30', to: '2026-05-02T18:30' }]);
    expect(searchWindows('How deep was the queue on 2 May?')).toEqual([]);
    expect(searchWindows('Why did the spooler restart on 2 May?')).toEqual([]);
  });

  it('searches the one day a "what time on <day>" question is set on', () => {
    expect(searchWindows('At what time on 9 May 2026 was the restart of the failed spooler workers requested?')).toEqual([{ from: '2026-05-09T00:00', to: '2026-05-09T23:59' }]);
    expect(searchWindows('What time on Friday 2 May did the printers come back?')).toEqual([{ from: '05-02T00:00', to: '05-02T23:59', anyYear: true }]);
    expect(searchWindows('What time does the spooler start on weekdays?')).toEqual([]);
  });

  it('tells a sentence dated only other days from one dated the asked day or none', () => {
    expect(statesOnlyOtherDays(new Set(['05-06', '05-06t16:53']), '2026-05-09')).toBe(true);
    expect(statesOnlyOtherDays(new Set(['2026-05-09', '05-09', '05-09t08:14']), '2026-05-09')).toBe(false);
    expect(statesOnlyOtherDays(new Set(), '05-09')).toBe(false);
  });

  it('keeps plans for readings anchored on different days apart in the plan cache', () => {
    const shape = (goal: string) => intentShapeOf({ goal, primary: 'analytical', classes: ['analytical'], entities: [], identifiers: [] } as never);
    expect(shape('How deep was the queue around the time LabelQueueDeep paged on 2 May?')).not.toEqual(shape('How deep was the queue around the time LabelQueueDeep paged on 3 May?'));
  });

  it('dates the event by a sentence naming it, however the question words the rest, and otherwise by most of its words', () => {
    const sentence = (text: string, moments: string[] = []) => ({ text, termSet: new Set(contentTerms(text)), moments: new Set(moments) });
    const timeline = [
      sentence('All four printer workers went to FAILED and stayed there.', ['05-02t16:10']),
      sentence('`LabelQueueDeep` paged at 17:40 and was acknowledged by the on-call.'),
    ];
    const idf = (term: string) => (term === 'went' ? 3 : 1);
    const named = askedEventAnchor('How deep was the label queue when LabelQueueDeep went off on 2 May?')!;
    expect(eventMomentIn(named, timeline, idf)?.candidate).toBe(timeline[1]);
    const unnamed = askedEventAnchor('How deep was the label queue right before the spooler was restarted on 2 May?')!;
    const restarts = [sentence('The spooler config was changed.', ['05-02t07:00']), sentence('May 2 08:14 — spooler restarted; jobs drain.', ['05-02t08:14'])];
    expect(eventMomentIn(unnamed, restarts, () => 1)?.candidate).toBe(restarts[1]);
  });

  it('reads the first or last record of the day a question is set on, not a first after an event nor a run named by its date', () => {
    expect(askedDayBound('At what time on 2 May did the spooler log its first warning about a jammed tray?')).toEqual({ side: 'after', day: '05-02' });
    expect(askedDayBound('What was the last batch the printer finished on Friday 2 May 2026?')).toEqual({ side: 'before', day: '2026-05-02' });
    expect(askedDayBound('On 2 May, when was the fix merged, and when did the log first show the new tray count?')).toBeUndefined();
    expect(askedDayBound('What time did the last retry of the 2 May label run fail?')).toBeUndefined();
    expect(askedDayBound('On 2 May, was that the first time the tray jammed?')).toBeUndefined();
    expect(searchWindows('At what time on 2 May did the spooler log its first warning about a jammed tray?')).toEqual([{ from: '05-02T00:00', to: '05-02T23:59', anyYear: true }]);
  });
});
