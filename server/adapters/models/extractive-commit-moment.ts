/** The moment of a commit as the extractive reader quotes it beside the commit subject (extractive-block-parser.ts). */
const GIT_MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * When a commit was made, in UTC like the logs and metrics it is compared with: "2026-04-14T10:20:00+02:00"
 * (ISO) or git's default "Tue Apr 14 10:20:00 2026 +0200" read "2026-04-14 08:20 UTC". "When was the
 * change scaling eta-api merged, and when did its log first show it?" asks for the clock time, which a
 * subject carrying only its day could not answer (freight dev d76). A date without a time or an offset
 * stays the day it wrote; empty for any other form.
 */
export function commitMoment(field: string): string {
  const trimmed = field.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2}))?(?!\d)/i.exec(trimmed);
  if (iso) return iso[4] === undefined ? `${iso[1]}-${iso[2]}-${iso[3]}` : inUtc(iso[1], iso[2], iso[3], iso[4], iso[5], iso[6]);
  const git = /^\w{3}\s+(\w{3})\s+(\d{1,2})\s+(\d{1,2}):(\d{2})(?::\d{2})?\s+(\d{4})(?:\s+([+-]\d{4}))?\b/.exec(trimmed);
  const month = git ? GIT_MONTHS.indexOf(git[1].toLowerCase()) + 1 : 0;
  if (!git || month === 0) return '';
  const [year, monthOf, day] = [git[5], String(month).padStart(2, '0'), git[2].padStart(2, '0')];
  return git[6] === undefined ? `${year}-${monthOf}-${day}` : inUtc(year, monthOf, day, git[3], git[4], git[6]);
}

function inUtc(year: string, month: string, day: string, hour: string, minute: string, offset: string): string {
  const sign = offset.toUpperCase() === 'Z' ? 0 : offset.startsWith('-') ? -1 : 1;
  const digits = offset.replace(/[^\d]/g, '');
  const offsetMinutes = sign * (Number(digits.slice(0, 2) || 0) * 60 + Number(digits.slice(2, 4) || 0));
  const utc = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute)) - offsetMinutes * 60_000).toISOString();
  return `${utc.slice(0, 10)} ${utc.slice(11, 16)} UTC`;
}
