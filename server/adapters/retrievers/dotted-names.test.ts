/**
 * A query naming the tail of a corpus's dotted name (`retry.backoff.limit`, "retry backoff limit")
 * gains the full name as a term, so bm25 meets the one host token PostgreSQL indexed it as.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetrieverPlugin } from '../../runtime/contracts/retriever';
import { openStores, type Stores } from '../db/open-stores';
import { DottedNameIndex } from './dotted-names';

describe('DottedNameIndex', () => {
  const index = new DottedNameIndex(['spooler.override.retry.backoff.limit', 'Printer.Tray.Count', 'a.tray.count', 'b.tray.count', 'c.tray.count']);

  it('finds a name by a dotted tail or by its tail written as spaced words', () => {
    expect(index.namesFor('what is retry.backoff.limit set to?')).toEqual(['spooler.override.retry.backoff.limit']);
    expect(index.namesFor('how is the retry backoff limit set?')).toEqual(['spooler.override.retry.backoff.limit']);
    expect(index.namesFor('the spooler', ['backoff.limit'])).toEqual(['spooler.override.retry.backoff.limit']);
  });

  it('finds a name by its last segment as a word only when asked to (a setting lookup)', () => {
    const keys = new DottedNameIndex(['tray.key.converter', 'tray.value.converter', 'job.id']);
    expect(keys.namesFor('which key and value converters does the tray use?')).toEqual([]);
    expect(keys.namesFor('which key and value converters does the tray use?', [], { lastSegment: true })).toEqual(['tray.key.converter', 'tray.value.converter']);
    expect(keys.namesFor('which id?', [], { lastSegment: true })).toEqual([]);
  });

  it('never on one word, a full name already asked, or a tail many names share', () => {
    expect(index.namesFor('what is the limit?')).toEqual([]);
    expect(index.namesFor('spooler.override.retry.backoff.limit')).toEqual([]);
    expect(index.namesFor('which tray count?')).toEqual([]);
  });
});

describe('bm25 with the corpus dotted names', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'cr-dotted-names-'));
  let stores: Stores;
  let bm25: RetrieverPlugin;

  beforeAll(async () => {
    stores = await openStores({ dataDir: path.join(root, 'pglite') });
    const docs = ['The spooler retries a failed job with a backoff.', 'Each retry of the label printer waits for the backoff.', 'The retry limit of the queue is described here.'];
    await stores.store.ingest(
      { name: 'spooler-git', kind: 'git' },
      [
        { uri: 'commit 1', ordinal: 0, title: 'commit 1: Initial import', text: 'Initial import of the spooler', tokens: 5, locator: 'commit 1' },
        { uri: 'commit 1', ordinal: 1, title: 'commit 1 · spool.json', text: '+"tray.converter": "PlainConverter"', tokens: 3, locator: 'commit 1 · spool.json', lookupOnly: true },
      ],
      'spooler-git-1',
    );
    await stores.store.ingest(
      { name: 'spooler-docs', kind: 'docs' },
      [...docs, 'spooler.override.retry.backoff.limit=7'].map((text, ordinal) => ({ uri: `doc-${ordinal}.md`, ordinal: 0, title: `Doc ${ordinal}`, text, tokens: text.split(/\s+/).length })),
      'spooler-docs-1',
    );
    [bm25] = stores.retrievers;
  });

  afterAll(async () => {
    await stores?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const setting = 'spooler.override.retry.backoff.limit=7';
  const search = (text: string) => bm25.search({ text, k: 4, sources: ['spooler-docs'], identifiers: [] });

  it('ranks the line setting the dotted key first when the query names its dotted tail', async () => {
    expect((await search('retry.backoff.limit'))[0]?.text).toBe(setting);
  });

  it('finds a configured key by its noun in a setting lookup', async () => {
    const hits = await bm25.searchLookupOnly!({ text: 'which converters does the tray use', k: 3, sources: ['spooler-git'], identifiers: [] });
    expect(hits.map((hit) => hit.locator)).toEqual(['commit 1 · spool.json']);
  });

  it('finds it when the query writes the tail as words, which alone share nothing with it', async () => {
    expect((await search('the retry backoff limit')).map((hit) => hit.text)).toContain(setting);
  });
});
