/**
 * One detector for personal data and secrets, used wherever text may leave the machine: a goal
 * (intent analysis), a chunk at ingest, and every passage before a call to a non-local model or
 * embedder. Patterns are deliberately specific (checksums for IBANs and card numbers, known key
 * prefixes, entropy for a generic key=value) so ordinary log lines and ids stay unflagged.
 */

/** What happens to a sensitive passage bound for a non-local model (config policy.sensitive_content). */
export type SensitiveContentMode = 'local_only' | 'redact';

export type SensitiveKind = 'email' | 'phone' | 'iban' | 'api_key' | 'private_key' | 'jwt' | 'card_number' | 'ssn';

export interface SensitiveMatch {
  readonly kind: SensitiveKind;
  readonly start: number;
  readonly end: number;
}

interface Pattern {
  readonly kind: SensitiveKind;
  /**
   * A character or literal every match contains, tested on the whole text before the regex: most
   * texts (every goal plan() analyses, most passages) hold no "@", no ":"/"=" or no digit, and a
   * scan for one is far cheaper than running a pattern with look-behinds at every position.
   */
  readonly needs: RegExp;
  readonly regex: RegExp;
  /** Extra check on the match (checksum, entropy); the span reported may be a capture group. */
  readonly accept?: (match: RegExpExecArray) => { start: number; end: number } | undefined;
}

/** Luhn checksum: keeps order numbers and timestamps from passing as card numbers. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** ISO 13616 mod-97 check: letters count as 10–35, the first four characters move to the end. */
function ibanValid(raw: string): boolean {
  const iban = raw.replaceAll(' ', '');
  if (iban.length < 15 || iban.length > 34) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of moved) {
    const value = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** Shannon entropy in bits per character: random keys score ≥ 3.5, words and config values lower. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) bits -= (count / text.length) * Math.log2(count / text.length);
  return bits;
}

/**
 * Issuer prefixes of the card networks (Visa 4, Mastercard 51–55 and 22–27, Amex 34/37, JCB 35, Diners
 * 30/36/38/39, Discover/UnionPay/Maestro 6): with Luhn alone one digit run in ten passes, and
 * epoch milliseconds ("1772730065789", examples/freight-data-platform) or dated order numbers
 * ("20251130-009470", examples/billing-pipeline) did.
 */
const CARD_PREFIX = /^(?:4|5[1-5]|2[2-7]|3[04-9]|6)/;

/** "name@instance.service" is a systemd template unit, not a mailbox; none of these is a mail domain's TLD. */
const SYSTEMD_UNIT_TYPES = new Set(['service', 'socket', 'timer', 'target', 'mount', 'automount', 'slice', 'scope', 'path', 'device', 'swap']);

const whole = (match: RegExpExecArray) => ({ start: match.index, end: match.index + match[0].length });

const PATTERNS: readonly Pattern[] = [
  { kind: 'private_key', needs: /-----BEGIN /, regex: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)/g },
  { kind: 'jwt', needs: /eyJ/, regex: /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,4096}\.[A-Za-z0-9_-]{8,4096}/g },
  { kind: 'api_key', needs: /sk-|gh[pousr]_|github_pat_|xox[abposr]-|AKIA|ASIA|AIza|glpat-/, regex: /\b(?:sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}|xox[abposr]-[A-Za-z0-9-]{10,}|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,})/g },
  {
    kind: 'api_key',
    needs: /[:=]/,
    // key = value where the name says secret and the value looks random (not "changeme", not a path).
    // Bounded name parts, starting only where a name starts: linear on a 500k-character token.
    regex: /(?<![A-Za-z0-9_.-])[A-Za-z0-9_.-]{0,40}?(?:api[_-]?key|secret|token|passw(?:or)?d|access[_-]?key|private[_-]?key|client[_-]?secret|auth)[A-Za-z0-9_.-]{0,40}["']?[ \t]{0,8}[:=][ \t]{0,8}["']?([A-Za-z0-9_\-+/=.~]{16,256})/gi,
    accept: (match) => {
      const value = match[1];
      if (entropy(value) < 3.5) return undefined;
      const start = match.index + match[0].lastIndexOf(value);
      return { start, end: start + value.length };
    },
  },
  {
    kind: 'email',
    needs: /@/,
    // Not after "/": "postgres://ledger_export@pg-1.internal" is a URL's user, not a mailbox. Not a
    // systemd unit ("billing-worker@1.service"). Both misfired on examples/billing-pipeline.
    regex: /(?<![A-Za-z0-9._%+\-/])[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}\.([A-Za-z]{2,24})\b/g,
    accept: (match) => (SYSTEMD_UNIT_TYPES.has(match[1].toLowerCase()) ? undefined : whole(match)),
  },
  { kind: 'iban', needs: /\d/, regex: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g, accept: (match) => (ibanValid(match[0]) ? whole(match) : undefined) },
  { kind: 'ssn', needs: /\d/, regex: /\b\d{3}-\d{2}-\d{4}\b/g },
  {
    kind: 'card_number',
    needs: /\d/,
    regex: /\b\d(?:[ -]?\d){12,18}\b/g,
    accept: (match) => {
      const digits = match[0].replace(/\D/g, '');
      return digits.length >= 13 && digits.length <= 19 && CARD_PREFIX.test(digits) && luhnValid(digits) ? whole(match) : undefined;
    },
  },
  // International (+ country code) or North American (3-3-4) numbers; bare digit runs are left alone.
  // A country code never starts with 0, and a "+" glued to a word joins names ("positions+3+0916438231.parquet").
  { kind: 'phone', needs: /\d/, regex: /(?:(?<![A-Za-z0-9+])\+[1-9]\d{0,2}[ .-]?(?:\(\d{1,4}\)[ .-]?)?\d{2,4}(?:[ .-]?\d{2,4}){2,4}|\(\d{3}\) ?\d{3}[ .-]\d{4}|\b\d{3}[.-]\d{3}[.-]\d{4})\b/g },
];

/** Every sensitive span in `text`, in order, overlapping spans merged into the first kind found. */
export function detectSensitive(text: string): readonly SensitiveMatch[] {
  const found: SensitiveMatch[] = [];
  for (const pattern of PATTERNS) {
    if (!pattern.needs.test(text)) continue;
    for (const match of text.matchAll(pattern.regex)) {
      const span = pattern.accept ? pattern.accept(match as RegExpExecArray) : whole(match as RegExpExecArray);
      if (!span) continue;
      if (found.some((other) => span.start < other.end && other.start < span.end)) continue;
      found.push({ kind: pattern.kind, ...span });
    }
  }
  return Object.freeze(found.sort((a, b) => a.start - b.start));
}

export const containsSensitive = (text: string): boolean => detectSensitive(text).length > 0;

/** `text` with each sensitive span replaced by `[REDACTED kind]`: what a non-local model may see under policy "redact". */
export function redactSensitive(text: string): string {
  const matches = detectSensitive(text);
  let result = '';
  let at = 0;
  for (const match of matches) {
    result += `${text.slice(at, match.start)}[REDACTED ${match.kind}]`;
    at = match.end;
  }
  return result + text.slice(at);
}

/** The distinct kinds found, for an error or a caveat that must not quote the text itself. */
export const sensitiveKinds = (text: string): readonly SensitiveKind[] => [...new Set(detectSensitive(text).map((match) => match.kind))];
