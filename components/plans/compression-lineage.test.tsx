import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CompressionLineage } from './compression-lineage';

describe('CompressionLineage', () => {
  it('lists the source versions the context was derived from and each chunk it cut', () => {
    const html = renderToStaticMarkup(
      <CompressionLineage
        headingId="c"
        compression={{
          tokensBefore: 900,
          tokensAfter: 350,
          omitted: [{ chunkId: 'chk_a', tokensRemoved: 300, sentences: 3, why: '3 of 5 sentences off the goal dropped' }],
          derivedFrom: [{ sourceName: 'wiki', sourceVersionId: 'ver_1', chunks: 2 }],
          servedFrom: 'sum_1',
        }}
      />,
    );
    expect(html).toContain('<h3 id="c">Compressed context</h3>');
    expect(html).toContain('served from kept copy <code>sum_1</code>');
    expect(html).toMatch(/<ul aria-label="Derived from"><li>wiki <code>ver_1<\/code> · 2 chunks<\/li><\/ul>/);
    expect(html).toMatch(/<ul aria-label="Omitted"><li><code>chk_a<\/code>: 3 of 5 sentences off the goal dropped \(300 tokens\)<\/li><\/ul>/);
  });
});
