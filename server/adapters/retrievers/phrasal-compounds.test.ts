import { describe, expect, it } from 'vitest';
import { joinedNounsOf } from './phrasal-compounds';
import { extractTerms } from './query-terms';

describe('joinedNounsOf', () => {
  it('joins a phrasal verb in any tense into the noun logs and runbooks write', () => {
    expect(joinedNounsOf('When kafka-3 was shut down for patching, did the sink fall back?')).toEqual(['shutdown', 'fallback']);
    expect(joinedNounsOf('The call timed out twice and the replica failed over')).toEqual(['timeout', 'failover']);
    expect(joinedNounsOf('Who rolled back 5.2 and who rolled it out again?')).toEqual(['rollback']);
  });

  it('leaves words that are not a verb and its particle alone', () => {
    expect(joinedNounsOf('Which logs in the Connect cluster show the time of the restart?')).toEqual([]);
    expect(joinedNounsOf('')).toEqual([]);
  });
});

describe('extractTerms', () => {
  it('adds the joined noun after the typed words, each once', () => {
    expect(extractTerms('broker shut down at 09:00; shutdown took 2 s')).toEqual(['broker', 'shut', 'down', 'at', '09:00', 'shutdown', 'took', '2', 's']);
  });
});
