import { describe, expect, it } from 'vitest';
import { bridgeEntities } from './bridge-entities';

describe('bridge entities of a first hop', () => {
  it("names the entity the answer holds and the question does not, joiners kept inside the name", () => {
    const goal = 'Who was the first president of the association which published Journal of Psychotherapy Integration?';
    const answer = 'The Journal of Psychotherapy Integration is a quarterly journal published by the American Psychological Association on behalf of the Society for the Exploration of Psychotherapy Integration [1].';
    expect(bridgeEntities(answer, goal, 1)).toEqual(['American Psychological Association']);
  });

  it('ranks a repeated name first, drops sentence-initial function words and citation markers', () => {
    const answer = 'In 1998 the band moved to Seattle [2]. He lived in Seattle until his death [3]. It toured Canada [1].';
    expect(bridgeEntities(answer, "Where did Hello Love's performer live when he died?", 2)).toEqual(['Seattle', '1998']);
  });

  it("takes no log level, month, weekday or stamp fragment of an ops line for a name, nor a log line's message words", () => {
    const answer = [
      '- [2026-05-04 09:12:31,523] INFO [Spooler clientId=spool-2] offset reset for partition print-jobs-3 [1].',
      '- Mar 6 16:40 — change "Route print jobs through Gutenberg Gateway" merged on Friday [2].',
    ].join(' ');
    expect(bridgeEntities(answer, 'Which gateway did the print jobs move to, and who owns it?', 3)).toEqual(['Route', 'Gutenberg Gateway']);
  });

  it("reads only cited claims: the reader's lead-in and uncited lines name no bridge", () => {
    const answer = 'Evidence on "Where is the Bubye River" from 2 context items: - The Bubye River is a tributary of the Limpopo River in Zimbabwe [1]. - Nothing Else Here.';
    expect(bridgeEntities(answer, 'What is the waterfall in the country where the Bubye River is found?', 2)).toEqual(['Limpopo River', 'Zimbabwe']);
  });

  it("skips the reader's provenance of a commit sentence: its author and sha are not what the claim says", () => {
    const answer = '- Spooler retries now back off for 30 s (commit cc208f1, Lena Brandt, 2026-04-14) [1]. - The queue drained via Gutenberg Gateway (commit 2c7f3a8, Dev Patel) [2].';
    expect(bridgeEntities(answer, 'Which change made the spooler back off?', 3)).toEqual(['Gutenberg Gateway']);
  });

  it('finds nothing when every name is already in the question', () => {
    expect(bridgeEntities('Journal of Psychotherapy Integration is quarterly [1].', 'How often does Journal of Psychotherapy Integration appear?')).toEqual([]);
  });
});
