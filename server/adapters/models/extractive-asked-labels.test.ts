import { describe, expect, it } from 'vitest';
import { answerWordsAsked, asksWhyNobodyTold, labelDefinitionTest, labelledIdTest } from './extractive-asked-labels';
import { answerFromContext, contextItem } from './testing/extractive-reader-answers';

describe('answers a document states as a labelled field', () => {
  it('reads "who wrote" as asking for the author, and an id asked by its label', () => {
    expect(answerWordsAsked('Who wrote the postmortem of the spooler outage?')).toEqual(['author']);
    expect(answerWordsAsked('Which team owns spoolerd?')).toEqual([]);
    const statesIncidentId = labelledIdTest("What's the incident number of the May spooler outage?")!;
    expect(statesIncidentId('Status: final. Author: Ana Lima. Incident PRN-INC-007.')).toBe(true);
    expect(statesIncidentId('The incident lasted 3 hours.')).toBe(false);
    expect(labelledIdTest('What caused the spooler outage?')).toBeUndefined();
  });

  it('quotes the status line for the incident number and the author, not the timeline repeating the subject', () => {
    const items = [
      contextItem(1, 'Timeline', 'ops-docs', '- May 4 09:14 — the May spooler outage begins: prn-01 stops printing labels, the spooler outage number one of May.\n- May 4 09:40 — the May spooler outage is paged; prn-01 is restarted during the spooler outage.\n- May 4 10:05 — the May spooler outage ends; the spooler outage incident is closed.\n- May 5 — the postmortem of the May spooler outage is written.'),
      contextItem(2, 'Postmortem: spooler outage › Summary', 'ops-docs', 'Status: final. Author: Ana Lima (print team). Incident PRN-INC-007.\n\nFrom 09:14 no labels were printed.'),
    ];
    const text = answerFromContext("What's the incident number of the May spooler outage, and who wrote the postmortem?", items);
    expect(text.split('\n')[1]).toContain('Incident PRN-INC-007');
  });

  it('answers "should I be worried?" with the sentence saying the lines are expected, in words the question lacks', () => {
    expect(answerWordsAsked('The spooler log is full of retries. Should I be worried?').length).toBeGreaterThan(0);
    expect(answerWordsAsked('Which broker dropped out?')).toEqual([]);
    const items = [
      contextItem(1, 'spoolerd.log', 'ops-logs', '[2026-05-09 09:00:38] WARN spoolerd: prn-03 unreachable\n[2026-05-09 09:00:41] WARN spoolerd: prn-03 unreachable', 'lines 1-2'),
      contextItem(2, 'Print handbook › Maintenance', 'ops-docs', 'Printers get firmware updates one at a time on Saturday mornings. The unreachable warnings in the spooler log during that window are expected.'),
      contextItem(3, 'Print handbook › Queues', 'ops-docs', 'spoolerd keeps the queue of a printer while it is unreachable and logs a warning every few seconds.'),
    ];
    const text = answerFromContext('On Saturday morning the spooler log keeps warning that prn-03 is unreachable. Which printer dropped out, and should I be worried?', items);
    expect(text).toContain('during that window are expected');
  });

  it('answers why nobody was paged with where the alert goes, not with the failure\'s traceback (dev d57)', () => {
    expect(asksWhyNobodyTold('The nightly render burned through its retries. Why did nobody get paged for it?')).toBe(true);
    expect(asksWhyNobodyTold("Why wasn't the on-call alerted?")).toBe(true);
    expect(asksWhyNobodyTold('The queue alert fired on Friday. Why did nobody act on it over the weekend?')).toBe(true);
    expect(asksWhyNobodyTold('Why did the nightly render fail?')).toBe(false);
    const items = [
      contextItem(1, 'render.log', 'ops-logs', '[2026-05-09T03:34:59] ERROR - Task failed with exception\nTraceback (most recent call last): File "render.py", line 12, in run raise RenderException("font cache missing") render.RenderException: font cache missing, the nightly render failed', 'lines 1-2'),
      contextItem(2, 'Runbook: re-running the nightly render', 'ops-docs', 'A failed run leaves the labels of the previous day. `RenderFailed` posts to `#print-alerts` with the run id.'),
    ];
    const text = answerFromContext('The nightly render burned through all its retries overnight. Why did nobody get paged for it?', items);
    expect(text.split('\n')[1]).toContain('RenderFailed');
  });

  it('reads "when it fills up" as a full spool and "bounce" as a restart, the words the sources write (fresh f114)', () => {
    expect(answerWordsAsked('What happens when the spool disk fills up?')).toEqual(['full']);
    expect(answerWordsAsked('Do I have to bounce spoolerd?')).toEqual(['restart']);
    expect(answerWordsAsked('What fills the spool disk?')).toEqual([]);
    const items = [
      contextItem(1, 'commit 4be01c2', 'ops-git', 'spool disk: 40gb, reject-new; label_cache ttl 2 days\n\nThe spool disk of spoolerd reached 20gb at 06:41 after the label_cache files of spoolerd piled up since Monday. 40gb fits both caches, and reject-new makes a full spool refuse new jobs (which pages) instead of silently dropping queued labels.'),
      contextItem(2, 'Print handbook › Alerts', 'ops-docs', 'Alert: `SpoolDiskHigh`, fires when the spool disk of spoolerd is above 90 %.'),
    ];
    const text = answerFromContext('With the spool disk of spoolerd on reject-new now, what happens when it fills up?', items);
    expect(text.split('\n')[1]).toContain('refuse new jobs');
  });

  it('reads a line opening with a numbered label the question names and a colon as its definition', () => {
    const defines = labelDefinitionTest('The outage was filed as P2; why not P1?');
    expect(defines('P2: labels were lost in the past.')).toBe(true);
    expect(defines('p1 : customers get no labels.')).toBe(true);
    expect(defines('P3: a batch failed.')).toBe(false);
    expect(defines('Filed as P2: see the postmortem.')).toBe(false);
    expect(labelDefinitionTest('Why did the printer stop?')('P2: labels were lost.')).toBe(false);
  });
});

