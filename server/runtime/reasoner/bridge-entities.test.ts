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

  it('finds nothing when every name is already in the question', () => {
    expect(bridgeEntities('Journal of Psychotherapy Integration is quarterly [1].', 'How often does Journal of Psychotherapy Integration appear?')).toEqual([]);
  });
});
