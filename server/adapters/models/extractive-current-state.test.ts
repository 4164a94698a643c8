import { describe, expect, it } from 'vitest';
import { asksCurrentState, withAskedMonthFirst, withPresentStateFirst } from './extractive-current-state';
import { unitsOf } from './extractive-units';
import { answerFromContext, contextItem } from './testing/extractive-reader-answers';

describe('a question about the present, against the states a corpus kept', () => {
  it('reads which questions ask for the present', () => {
    expect(asksCurrentState('The runbook says the spooler keeps 7 days. Is that still true?')).toBe(true);
    expect(asksCurrentState('What queue limit does spoolerd run with at the moment?')).toBe(true);
    expect(asksCurrentState("What's the current queue limit of spoolerd?")).toBe(true);
    // A named day asks for that day's state; a role named "current" asks nothing about the present.
    expect(asksCurrentState('What queue limit did spoolerd run with on 4 May, and is it still the same?')).toBe(false);
    expect(asksCurrentState('Ana Lima is the current owner of a printer in which building?')).toBe(false);
    expect(asksCurrentState('What queue limit does spoolerd run with?')).toBe(false);
    // "Every now and then" says how often; a month named asks about that month.
    expect(asksCurrentState('The nightly render fails every now and then at :05. What times out?')).toBe(false);
    expect(asksCurrentState('In February, which queue limit is spoolerd running with now?')).toBe(false);
  });

  it('lowers a superseded statement and raises the latest, a commit standing for its best line', () => {
    const items = [
      contextItem(1, 'commit 1a2b3c4: spoolerd: queue limit 100', 'ops-git', 'commit 1a2b3c4000000000000000000000000000000000\nDate: 2026-02-03T10:00:00Z\n\n    spoolerd: queue limit 100\n\n    The spool disk of prn-01 is at 87 %, so spoolerd runs with a queue limit of 100 jobs until the disks grow.', 'commit 1a2b3c4'),
      contextItem(2, 'Postmortem › Action items', 'ops-docs', '- spoolerd queue limit back to 400 jobs, spool disks grown to 2 TB (done 2026-03-10).'),
    ];
    const text = answerFromContext('Is a queue limit of 100 jobs still what spoolerd runs with?', items);
    expect(text.split('\n')[1]).toContain('back to 400 jobs');
    const units = unitsOf([{ ref: 1, header: 'a — s, l', text: 'Limit 100 (done 2026-02-03).' }, { ref: 2, header: 'b — s, l', text: 'Limit 400 (done 2026-03-10).' }]);
    const [older, later] = withPresentStateFirst([{ unit: units[0], score: 10 }, { unit: units[1], score: 8 }]);
    expect(later.score).toBeGreaterThan(older.score);
  });

  it('asked about a month, lowers a statement dated in another month and raises one dated in it (fresh f110)', () => {
    const items = [
      contextItem(1, 'commit 89685ee: spool-runner 0.38.1', 'ops-git', 'commit 89685ee000000000000000000000000000000000\nDate: 2026-04-02T11:00:00Z\n\n    spool-runner 0.38.1 for render_hourly\n\n    Fixes the hourly render failing and working on retry: the render session leak of 0.38.0 timed out the hourly render pods after ~20 runs.', 'commit 89685ee'),
      contextItem(2, 'commit 06f94e1: render_hourly: 3 retries', 'ops-git', 'commit 06f94e1000000000000000000000000000000000\nDate: 2026-02-19T14:10:00Z\n\n    render_hourly: 3 retries instead of 1\n\n    The font store times out now and then at minute 5; a retry after 5 minutes works.', 'commit 06f94e1'),
    ];
    const text = answerFromContext('In February the hourly render failed every now and then at :05 and then worked on retry. What was timing out?', items);
    expect(text.split('\n')[1]).toContain('font store times out');
    const units = unitsOf([{ ref: 1, header: 'a — s, l', text: 'Limit 100 (done 2026-02-03).' }, { ref: 2, header: 'b — s, l', text: 'Limit 400 (done 2026-04-10).' }]);
    const [february, april] = withAskedMonthFirst([{ unit: units[0], score: 8 }, { unit: units[1], score: 10 }], ['02']);
    expect(february.score).toBeGreaterThan(april.score);
    expect(withAskedMonthFirst([{ unit: units[0], score: 8 }, { unit: units[1], score: 10 }], ['06']).map((entry) => entry.score)).toEqual([8, 10]);
  });
});
