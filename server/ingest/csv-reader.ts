import { invalidInput } from '../runtime/errors';

/** One CSV record with the text it came from, so chunks can quote rows verbatim. */
export interface CsvRecord {
  readonly fields: readonly string[];
  /** 1-based line where the record starts (a quoted field may span lines). */
  readonly line: number;
  readonly raw: string;
}

/**
 * RFC 4180 reader: comma separator, double-quoted fields, "" as an escaped quote, newlines inside
 * quotes, LF or CRLF endings. Blank lines are skipped. A quote left open is an error naming the line,
 * since guessing where the field ends would shift every later column.
 */
export function readCsv(content: string, uri: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const text = content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  let line = 1;
  let recordLine = 1;
  let recordStart = 0;
  const endRecord = (end: number) => {
    fields.push(field);
    const raw = text.slice(recordStart, end);
    if (!(fields.length === 1 && fields[0].trim() === '')) records.push(Object.freeze({ fields: Object.freeze(fields), line: recordLine, raw }));
    fields = [];
    field = '';
  };
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inQuotes) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') inQuotes = false;
      else {
        if (char === '\n') line++;
        field += char;
      }
      continue;
    }
    if (char === '"' && field.trim() === '') {
      field = '';
      inQuotes = true;
    } else if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      endRecord(index);
      if (char === '\r' && text[index + 1] === '\n') index++;
      line++;
      recordLine = line;
      recordStart = index + 1;
    } else field += char;
  }
  if (inQuotes) throw invalidInput(uri, `unterminated quoted field starting on line ${recordLine}`, { file: uri, line: recordLine });
  if (recordStart < text.length) endRecord(text.length);
  return records;
}
