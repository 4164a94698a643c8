import { describe, expect, it } from 'vitest';
import { capitalisedSpans, extractEntities } from './entity-extractor';
import { createPassageGraph } from './passage-graph';
import { linkQueryEntities } from './entity-linker';
import { normalizeEntity, titleAliases } from './entity-normalizer';
import { scanIdentifiers } from './identifier-scan';

describe('entity extraction', () => {
  it('normalises spellings onto one name and rejects stopword-only spans', () => {
    expect(normalizeEntity('Person - centered Therapy')).toBe('person centered therapy');
    expect(normalizeEntity("The Pokémon Company's")).toBe('pokemon company');
    expect(normalizeEntity('The')).toBe('');
    expect(normalizeEntity('It is')).toBe('');
    expect(titleAliases('Lilu (mythology)')).toEqual(['lilu mythology', 'lilu']);
    expect(titleAliases('Leland, North Carolina')).toEqual(['leland north carolina', 'leland']);
  });

  it('finds capitalised names, not capitalised sentence openers', () => {
    const text =
      'The Journal of Mathematical Physics is published by the American Institute of Physics. Published monthly since January 1960, its editor is George T. Solomon of the University of Copenhagen. However, Copenhagen is far away.';
    expect(capitalisedSpans(text)).toEqual(['Journal of Mathematical Physics', 'American Institute of Physics', 'George T. Solomon', 'University of Copenhagen', 'Copenhagen']);
  });

  it('returns the title, spans, quoted strings and identifiers with their counts', () => {
    const mentions = extractEntities('Film Journal International', 'It is a sister of "Adweek" and "The Hollywood Reporter". Adweek moved; pod checkout-api-7d9f8b6c5-x2k4p restarted.');
    const byName = new Map(mentions.map((mention) => [mention.name, mention]));
    expect(byName.get('film journal international')).toMatchObject({ role: 'title', count: 1 });
    expect(byName.get('adweek')).toMatchObject({ count: 3 });
    expect(byName.get('hollywood reporter')).toBeDefined();
    expect(byName.get('checkout api 7d9f8b6c5 x2k4p')).toMatchObject({ role: 'identifier' });
  });

  it('scans log identifiers written as key=value, lower-cased', () => {
    const found = scanIdentifiers('ERROR pod=checkout-api-7d9f8b6c5-x2k4p request_id=req-42ab91 code=ERR_TIMEOUT status=503 from 10.0.0.7 sha 3F9C2A71B');
    expect(found.map((identifier) => `${identifier.kind}:${identifier.value}`)).toEqual([
      'pod_name:checkout-api-7d9f8b6c5-x2k4p',
      'deployment:checkout-api',
      'request_id:req-42ab91',
      'error_code:err_timeout',
      'http_status:503',
      'ip:10.0.0.7',
      'commit_sha:3f9c2a71b',
    ]);
  });
});

describe('query linking', () => {
  const graph = createPassageGraph([
    { chunkId: 'p1', sourceId: 's', entity: 'journal of psychotherapy integration', role: 'title', weight: 1 },
    { chunkId: 'p1', sourceId: 's', entity: 'psychotherapy', role: 'span', weight: 1 },
    { chunkId: 'p2', sourceId: 's', entity: 'published', role: 'span', weight: 1 },
    { chunkId: 'p3', sourceId: 's', entity: 'bubye river', role: 'title', weight: 1 },
    { chunkId: 'p4', sourceId: 's', entity: 'bubye', role: 'span', weight: 1 },
    { chunkId: 'p5', sourceId: 's', entity: 'limpopo river basin', role: 'span', weight: 1 },
  ]);
  const names = (text: string) => linkQueryEntities(graph, text).map((link) => link.name).sort();

  it('links the longest exact name and skips lower-case common words', () => {
    expect(names('Who was the first president of the association which published Journal of Psychotherapy Integration?')).toEqual(['journal of psychotherapy integration']);
    expect(names('What is the waterfall in the country where the Bubye River is found?')).toEqual(['bubye river']);
  });

  it('links an unmatched capitalised mention to names sharing its words', () => {
    expect(names('Which country holds the Limpopo Basin?')).toEqual(['limpopo river basin']);
  });
});
