import { describe, expect, it } from 'vitest';
import { agentLabelTerms, labelledIdTest } from './extractive-asked-labels';
import { answerFromContext, contextItem } from './testing/extractive-reader-answers';

describe('answers a document states as a labelled field', () => {
  it('reads "who wrote" as asking for the author, and an id asked by its label', () => {
    expect(agentLabelTerms('Who wrote the postmortem of the spooler outage?')).toEqual(['author']);
    expect(agentLabelTerms('Which team owns spoolerd?')).toEqual([]);
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
});
