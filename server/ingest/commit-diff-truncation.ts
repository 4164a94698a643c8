import type { CountTokens } from './ingest-types';

/**
 * Fits a `git show` text into a token budget. The header (sha, author, date, message, --stat) is kept
 * first because it answers "what changed and why" on its own, and --stat still lists every file even
 * when its diff is cut. The rest of the budget is shared fairly between files, in order, so one
 * generated lockfile cannot crowd out the two-line limit change next to it; each cut is marked in the text.
 */

const MIN_FILE_SHARE = 60;
const HEADER_SHARE = 0.5;

const lineCost = (line: string, countTokens: CountTokens) => countTokens(line) + 1;

function takeLines(lines: readonly string[], budget: number, countTokens: CountTokens): { kept: string[]; used: number } {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    const cost = lineCost(line, countTokens);
    if (used + cost > budget && kept.length > 0) break;
    kept.push(line);
    used += cost;
  }
  return { kept, used };
}

function truncateOnce(text: string, countTokens: CountTokens, maxTokens: number): string {
  const firstDiff = text.search(/^diff --git /m);
  const headerText = firstDiff < 0 ? text : text.slice(0, firstDiff).trimEnd();
  const sections = firstDiff < 0 ? [] : text.slice(firstDiff).split(/^(?=diff --git )/m);
  const headerLines = headerText.split('\n');
  const header = takeLines(headerLines, Math.floor(maxTokens * (firstDiff < 0 ? 1 : HEADER_SHARE)), countTokens);
  const output = [...header.kept];
  if (header.kept.length < headerLines.length) output.push(`[… ${headerLines.length - header.kept.length} more lines of the commit message and stat truncated]`);
  let remaining = maxTokens - header.used - countTokens(output.slice(header.kept.length).join('\n'));
  const pathOf = (section: string) => /^diff --git a\/(.+?) b\//.exec(section)?.[1] ?? 'file';
  for (const [index, section] of sections.entries()) {
    const lines = section.trimEnd().split('\n');
    const filesLeft = sections.length - index;
    if (remaining < MIN_FILE_SHARE / 2) {
      const rest = sections.slice(index).map(pathOf);
      output.push('', `[… diff of ${rest.length} more file(s) omitted: ${rest.join(', ')}]`);
      break;
    }
    const share = Math.min(remaining, Math.max(MIN_FILE_SHARE, Math.floor(remaining / filesLeft)));
    const taken = takeLines(lines, share, countTokens);
    output.push('', ...taken.kept);
    remaining -= taken.used;
    if (taken.kept.length < lines.length) {
      const note = `[… ${lines.length - taken.kept.length} more diff lines of ${pathOf(section)} truncated]`;
      output.push(note);
      remaining -= lineCost(note, countTokens);
    }
  }
  return output.join('\n');
}

export function truncateCommitText(text: string, countTokens: CountTokens, maxTokens: number): { text: string; truncated: boolean } {
  if (countTokens(text) <= maxTokens) return { text, truncated: false };
  // Per-line counts only approximate the count of the joined text; shrink the budget until it fits.
  let budget = maxTokens;
  let result = truncateOnce(text, countTokens, budget);
  for (let attempt = 0; attempt < 4 && countTokens(result) > maxTokens; attempt++) {
    budget = Math.floor(budget * 0.9);
    result = truncateOnce(text, countTokens, budget);
  }
  return { text: result, truncated: true };
}
