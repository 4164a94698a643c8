import { describe, expect, it } from 'vitest';
import { quotedSpans } from './goal-tokens';

describe('quotedSpans', () => {
  it('finds spans in each kind of quote', () => {
    expect(quotedSpans('find "disk full" in the logs')).toEqual(['disk full']);
    expect(quotedSpans('find “disk full” and ‘oom killed’ and `E1234`')).toEqual(['disk full', 'oom killed', 'E1234']);
    expect(quotedSpans("search 'checkout-api' errors")).toEqual(['checkout-api']);
  });

  it('reads apostrophes and unclosed or empty quotes as no span', () => {
    expect(quotedSpans("why did Alice's deploy fail")).toEqual([]);
    expect(quotedSpans("grep 'it's broken' now")).toEqual(["it's broken"]);
    expect(quotedSpans('an "unclosed quote')).toEqual([]);
    expect(quotedSpans('empty "" quotes')).toEqual([]);
    expect(quotedSpans(`a "${'x'.repeat(201)}" span`)).toEqual([]);
  });
});
