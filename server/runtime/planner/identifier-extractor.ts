import type { Identifier } from '../types';
import { REQUEST_STOPWORDS } from '../text/english-stopwords';
import { COMMIT_LEADS, DEPLOYMENT_LEADS, KNOWN_ERROR_NAMES, NOT_ERROR_CODES, REQUEST_LEADS, STATUS_LEADS, WORD_CUES } from './intent-lexicon';

/**
 * Recognises identifiers one whitespace token at a time. Every pattern is anchored and
 * applied to a single token of at most MAX_TOKEN_CHARS, so the work is linear in the goal
 * length whatever the user typed (no regex ever sees the whole goal: a 1 MB goal of
 * "a-a-a-…" cannot trigger the quadratic/exponential backtracking that unanchored
 * patterns with nested quantifiers exhibit — see the OWASP ReDoS write-up).
 */
export const MAX_TOKEN_CHARS = 100;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?::\d{1,5})?$/;
const HEX = /^[0-9a-f]{7,40}$/i;
const LETTER_CODE = /^[A-Z]{1,4}-?\d{3,6}$/;
const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const EXCEPTION_NAME = /^[A-Z][A-Za-z0-9]*(?:Exception|Error)$/;
const REQUEST_PREFIXED = /^(?:req|request|rid|trace|span|corr)[-_:][A-Za-z0-9][A-Za-z0-9_-]{5,}$/i;
const ID_LIKE = /^[A-Za-z0-9][A-Za-z0-9_-]{5,}$/;
const HTTP_STATUS = /^[1-5]\d\d$/;
const HTTP_VERSION = /^http\/\d(?:\.\d)?$/i;
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;
const CVE = /^CVE-\d{4}-\d{4,}$/i;
const POD_SEGMENT = /^[a-z0-9]+$/;
const DIGIT = /\d/;
const HEX_LETTER = /[a-f]/i;

/** Kubernetes pod of a Deployment: <deployment>-<pod-template-hash 8–10>-<suffix 5>; checked by splitting, not by regex. */
export function podWorkloadName(token: string): string | undefined {
  const parts = token.split('-');
  if (parts.length < 3) return undefined;
  const suffix = parts[parts.length - 1];
  const hash = parts[parts.length - 2];
  if (suffix.length !== 5 || hash.length < 8 || hash.length > 10) return undefined;
  if (!DIGIT.test(hash)) return undefined;
  for (const part of parts) if (part.length === 0 || !POD_SEGMENT.test(part)) return undefined;
  return parts.slice(0, -2).join('-');
}

function isIpv4(token: string): boolean {
  const match = IPV4.exec(token);
  if (!match) return false;
  for (let index = 1; index <= 4; index++) if (Number(match[index]) > 255) return false;
  return true;
}

/** A plain word that may name a deployment: DNS-1123 shaped and not a stopword or cue word. */
export function isWorkloadName(lower: string): boolean {
  return lower.length >= 2 && DNS_LABEL.test(lower) && !REQUEST_STOPWORDS.has(lower) && !WORD_CUES.has(lower) && !/^\d+$/.test(lower);
}

/**
 * The identifier a token is, given the two lower-cased tokens before it (for
 * "HTTP 503", "deployment checkout-api", "request id 8f2c…", "commit 1a2b3c4").
 */
export function identifierOf(token: string, lower: string, previous: string, beforePrevious: string): Identifier | undefined {
  if (token.length > MAX_TOKEN_CHARS || token.length === 0) return undefined;
  const hasDigit = DIGIT.test(token);
  if (hasDigit) {
    if (token.length === 36 && UUID.test(token)) return { kind: 'uuid', value: lower };
    if (HTTP_STATUS.test(token)) {
      return STATUS_LEADS.has(previous) || HTTP_VERSION.test(previous) ? { kind: 'http_status', value: token } : undefined;
    }
    if (isIpv4(token)) return { kind: 'ip', value: token };
    if (CVE.test(token)) return { kind: 'other', value: token.toUpperCase() };
    if (REQUEST_PREFIXED.test(token)) return { kind: 'request_id', value: token };
    // The lead word decides: "request id 8f3a2b9c1d" is a request id even though it is also valid hex.
    const afterRequestLead = REQUEST_LEADS.has(previous) || (previous === 'id' && REQUEST_LEADS.has(beforePrevious));
    if (afterRequestLead && ID_LIKE.test(token)) return { kind: 'request_id', value: token };
    if (HEX.test(token) && (HEX_LETTER.test(token) || COMMIT_LEADS.has(previous))) return { kind: 'commit_sha', value: lower };
    if (LETTER_CODE.test(token) && !NOT_ERROR_CODES.has(token.replace('-', ''))) return { kind: 'error_code', value: token };
    if (podWorkloadName(lower) !== undefined && token === lower) return { kind: 'pod_name', value: token };
  }
  if (UPPER_SNAKE.test(token) || KNOWN_ERROR_NAMES.has(token) || (EXCEPTION_NAME.test(token) && token.length > 6)) {
    return { kind: 'error_code', value: token };
  }
  if (DEPLOYMENT_LEADS.has(previous) && isWorkloadName(lower)) return { kind: 'deployment', value: lower };
  const slash = lower.indexOf('/');
  if (slash > 0 && (lower.startsWith('deploy/') || lower.startsWith('deployment/') || lower.startsWith('deployments/'))) {
    const name = lower.slice(slash + 1);
    if (isWorkloadName(name)) return { kind: 'deployment', value: name };
  }
  return undefined;
}
