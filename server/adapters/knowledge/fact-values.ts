/**
 * Canonical values, so "256Mi", "256 MiB" and "0.25Gi" agree and "512Mi" vs "256Mi" is a
 * disagreement. Units follow Kubernetes' resource quantities (binary Ki/Mi/Gi/Ti, decimal k/M/G/T,
 * CPU in cores or millicores).
 */

const MEBIBYTE = 1024 ** 2;

const BYTES_PER_UNIT: Readonly<Record<string, number>> = Object.freeze({
  ki: 1024,
  mi: MEBIBYTE,
  gi: 1024 ** 3,
  ti: 1024 ** 4,
  k: 1e3,
  m: 1e6,
  g: 1e9,
  t: 1e12,
  // Prose says "MB" and means what the dashboard shows, MiB (the demo's own docs do); reading it
  // as 10^6 bytes would turn every "512 MB" in a runbook into a false contradiction with "512Mi".
  kb: 1024,
  mb: MEBIBYTE,
  gb: 1024 ** 3,
  tb: 1024 ** 4,
});

/** A memory quantity anywhere in prose or config: "256Mi", "512 MiB", "1.5Gi", "384MB". */
export const MEMORY_QUANTITY = /\b(\d+(?:\.\d+)?)\s?(Ki|Mi|Gi|Ti|KiB|MiB|GiB|TiB|KB|MB|GB|TB)\b/;

/** "256Mi" for anything that is a whole number of MiB, bytes otherwise; undefined when not a quantity. */
export function normalizeMemory(raw: string): string | undefined {
  const match = /^(\d+(?:\.\d+)?)\s?([KMGT]i?B?|[kmgt])?$/i.exec(unquote(raw));
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = (match[2] ?? '').toLowerCase().replace(/ib$/, 'i');
  const perUnit = unit === '' ? 1 : BYTES_PER_UNIT[unit];
  if (perUnit === undefined || !Number.isFinite(amount)) return undefined;
  const bytes = amount * perUnit;
  return Number.isInteger(bytes / MEBIBYTE) ? `${bytes / MEBIBYTE}Mi` : `${Math.round(bytes)}B`;
}

/** Millicores: "1" → "1000m", "0.25" → "250m", "250m" → "250m". */
export function normalizeCpu(raw: string): string | undefined {
  const match = /^(\d+(?:\.\d+)?)\s?(m|cores?|cpus?)?$/i.exec(unquote(raw));
  if (!match) return undefined;
  const amount = Number(match[1]);
  const millicores = match[2]?.toLowerCase() === 'm' ? amount : amount * 1000;
  return Number.isFinite(millicores) ? `${Math.round(millicores)}m` : undefined;
}

export function unquote(raw: string): string {
  const trimmed = raw.trim();
  const quoted = /^(["'])(.*)\1$/.exec(trimmed);
  return (quoted ? quoted[2] : trimmed).trim();
}

/** The canonical form of a value for its attribute; undefined when it cannot be a value of it. */
export function normalizeValue(attribute: string, raw: string): string | undefined {
  const value = unquote(raw);
  if (!value || value.includes('{{')) return undefined;
  if (attribute.startsWith('memory ')) return normalizeMemory(value);
  if (attribute.startsWith('cpu ')) return normalizeCpu(value);
  if (attribute === 'replicas') return /^\d+$/.test(value) ? String(Number(value)) : undefined;
  if (/^(true|false|yes|no|on|off)$/i.test(value)) return value.toLowerCase();
  return value.length <= 200 ? value : undefined;
}
