/** CSV lines as a metrics export writes them (extractive-block-parser.ts reads a CSV block's rows with their column names). */

/** Fields of one CSV line (RFC 4180 quoting), or undefined when it has fewer than three. */
export function csvFields(line: string): string[] | undefined {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quoted && char === '"' && line[index + 1] === '"') { field += '"'; index += 1; }
    else if (char === '"' && (quoted || field === '')) quoted = !quoted;
    else if (char === ',' && !quoted) { fields.push(field); field = ''; }
    else field += char;
  }
  fields.push(field);
  return !quoted && fields.length >= 3 ? fields : undefined;
}
