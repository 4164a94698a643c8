import { describe, expect, it } from 'vitest';
import { readCsv } from './csv-reader';

describe('readCsv', () => {
  it('reads quoted fields with commas, escaped quotes and newlines, keeping raw text and start lines', () => {
    const content = 'a,b,c\r\n1,"x, y","say ""hi"""\r\n\r\n2,"multi\nline",z\n3,,';
    const records = readCsv(content, 'test.csv');
    expect(records.map((record) => record.fields)).toEqual([
      ['a', 'b', 'c'],
      ['1', 'x, y', 'say "hi"'],
      ['2', 'multi\nline', 'z'],
      ['3', '', ''],
    ]);
    expect(records.map((record) => record.line)).toEqual([1, 2, 4, 6]);
    expect(records[1].raw).toBe('1,"x, y","say ""hi"""');
    expect(records[2].raw).toBe('2,"multi\nline",z');
  });

  it('rejects an unterminated quote, naming the file and line', () => {
    expect(() => readCsv('a,b\n1,"open\n2,3\n', 'm.csv')).toThrow(/^m\.csv: unterminated quoted field starting on line 2$/);
  });
});
