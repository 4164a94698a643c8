/**
 * Counts the lines of a TypeScript file that hold code: not blank, not only comment. A small
 * lexer rather than a regex per line, because a line's `//` may sit inside a string
 * ('http://127.0.0.1') and a block comment may open mid-line after code (`x(); /* … *\/`),
 * which counts as code, as cloc and tokei count it. Regular-expression literals are skipped whole
 * (a `/["']/` holds a quote that opens no string), told from division by the token before them.
 */
export interface LineCount {
  /** Lines with at least one character of code outside comments. */
  readonly code: number;
  /** Lines holding only comment text (and whitespace). */
  readonly comment: number;
  readonly blank: number;
  readonly total: number;
}

type Mode = 'code' | 'block-comment' | 'single' | 'double' | 'template';

/** After one of these (or at the start), a `/` opens a regular expression rather than dividing. */
const BEFORE_REGEX = new Set([...'(,=:[!&|?{};+-*%<>~^']);

/** Index of the `/` closing the regular expression that opens at `start`, or the line's end. */
function regexEnd(line: string, start: number): number {
  let inClass = false;
  for (let index = start + 1; index < line.length; index += 1) {
    const char = line[index];
    if (char === '\\') index += 1;
    else if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
    else if (char === '/' && !inClass) return index;
  }
  return line.length;
}

export function countCodeLines(source: string): LineCount {
  const lines = source.split(/\r?\n/);
  // A trailing newline ends the last line; it does not start another.
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  let mode: Mode = 'code';
  // Each `${` inside a template pushes the brace depth at which its expression closes.
  const templateBraces: number[] = [];
  let braces = 0;
  let previous: string | undefined;
  const counts = { code: 0, comment: 0, blank: 0 };
  for (const line of lines) {
    let hasCode = false;
    let hasComment = mode === 'block-comment' && line.trim().length > 0;
    for (let index = 0; index < line.length; index += 1) {
      const char = line[index];
      const next = line[index + 1];
      if (mode === 'block-comment') {
        if (char === '*' && next === '/') {
          mode = 'code';
          index += 1;
        }
        continue;
      }
      if (mode === 'single' || mode === 'double') {
        hasCode = true;
        if (char === '\\') index += 1;
        else if (char === (mode === 'single' ? "'" : '"')) mode = 'code';
        continue;
      }
      if (mode === 'template') {
        hasCode = true;
        if (char === '\\') index += 1;
        else if (char === '`') mode = 'code';
        else if (char === '$' && next === '{') {
          templateBraces.push(braces);
          braces += 1;
          index += 1;
          mode = 'code';
        }
        continue;
      }
      // mode === 'code'
      if (/\s/.test(char)) continue;
      if (char === '/' && next === '/') {
        hasComment = true;
        break;
      }
      if (char === '/' && next === '*') {
        hasComment = true;
        mode = 'block-comment';
        index += 1;
        continue;
      }
      hasCode = true;
      if (char === '/' && (previous === undefined || BEFORE_REGEX.has(previous) || /\breturn$/.test(line.slice(0, index).trimEnd()))) {
        index = regexEnd(line, index);
        previous = '/';
        continue;
      }
      previous = char;
      if (char === "'") mode = 'single';
      else if (char === '"') mode = 'double';
      else if (char === '`') mode = 'template';
      else if (char === '{') braces += 1;
      else if (char === '}') {
        braces -= 1;
        if (templateBraces.at(-1) === braces) {
          templateBraces.pop();
          mode = 'template';
        }
      }
    }
    // Quoted strings end with their line (a line continuation is too rare in this code to follow).
    if (mode === 'single' || mode === 'double') mode = 'code';
    // A template literal spanning lines is code on every line it covers, blank ones included.
    if (mode === 'template' && !hasCode) hasCode = true;
    if (hasCode) counts.code += 1;
    else if (hasComment) counts.comment += 1;
    else counts.blank += 1;
  }
  return { ...counts, total: lines.length };
}
