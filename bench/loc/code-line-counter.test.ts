import { describe, expect, it } from 'vitest';
import { countCodeLines } from './code-line-counter';

const lines = (...text: string[]) => text.join('\n');

describe('countCodeLines', () => {
  it('counts code, comment-only and blank lines apart', () => {
    const source = lines('// header', '', 'const a = 1;', '   ', '/**', ' * JSDoc', ' */', 'export { a };', '');
    expect(countCodeLines(source)).toEqual({ code: 2, comment: 4, blank: 2, total: 8 });
  });

  it('counts a line with code before a comment as code, and one inside a block comment as comment', () => {
    const source = lines('call(); // why', 'call(); /* opens', 'still comment */', '/* a */ call();', '/* a */ /* b */');
    expect(countCodeLines(source)).toMatchObject({ code: 3, comment: 2 });
  });

  it('does not take // or /* inside strings for comments', () => {
    const source = lines("const url = 'http://127.0.0.1/v1';", 'const glob = "src/*.ts";', "const x = '/* not a comment';", 'after();');
    expect(countCodeLines(source)).toMatchObject({ code: 4, comment: 0 });
  });

  it('counts every line of a multi-line template literal as code, including blank ones and // inside it', () => {
    const source = lines('const prompt = `Question: ${goal}', '', '// kept in the prompt', '${items.map((item) => `[${item.ref}]`).join("\\n")}`;', '// a real comment');
    expect(countCodeLines(source)).toEqual({ code: 4, comment: 1, blank: 0, total: 5 });
  });

  it('skips regular expression literals whole, and still tells division apart', () => {
    const source = lines("const quote = /[\"'/]/g;", 'const half = total / 2; // half', 'return /\\/\\/ not a comment/.test(line);', '// comment');
    expect(countCodeLines(source)).toMatchObject({ code: 3, comment: 1 });
  });

  it('counts an escaped quote without leaving the string', () => {
    expect(countCodeLines(lines("const s = 'it\\'s // here';", '// only comment'))).toMatchObject({ code: 1, comment: 1 });
  });
});
