/**
 * Facts stated in prose and log lines, by pattern, for a small set of attributes an operator
 * argues about (resource limits and requests, replicas, image tags). Deliberately narrow: every
 * pattern added here is a source of false contradictions, so each must name its attribute
 * explicitly ("memory limit", "replicas") or carry a unit that implies it ("a 256Mi limit").
 */
import { subjectBefore, subjectOfLine } from './fact-subjects';
import { normalizeValue } from './fact-values';

export interface StatedFact {
  readonly attribute: string;
  readonly value: string;
  /** Named in the sentence itself; the caller falls back to the chunk's subject. */
  readonly subject?: string;
  /** "from 512Mi to 256Mi": the first value is what it was before the change. */
  readonly previous?: boolean;
  readonly sentence: string;
}

const MEMORY = String.raw`\d+(?:\.\d+)?\s?(?:[KMGT]i(?:B)?|[KMGT]B)\b`;
const CPU = String.raw`\d+(?:\.\d+)?(?:m\b|\s?(?:cores?|vCPUs?|CPUs?)\b)`;

const ATTRIBUTES: readonly { readonly attribute: string; readonly phrase: string; readonly value: string }[] = Object.freeze([
  { attribute: 'memory limit', phrase: String.raw`memory\s+limits?|limits\.memory`, value: MEMORY },
  { attribute: 'memory request', phrase: String.raw`memory\s+requests?|requests\.memory`, value: MEMORY },
  { attribute: 'cpu limit', phrase: String.raw`cpu\s+limits?|limits\.cpu`, value: CPU },
  { attribute: 'cpu request', phrase: String.raw`cpu\s+requests?|requests\.cpu`, value: CPU },
  // Plural only: "replica set checkout-api-7d9f8b6c5 to 2" is a ReplicaSet, not a replica count.
  { attribute: 'replicas', phrase: String.raw`replicas|replica\s+count`, value: String.raw`\d+` },
  { attribute: 'image tag', phrase: String.raw`image\s+(?:tag|version)`, value: String.raw`v?\d+(?:\.\d+)+[\w.-]*` },
]);

const VERB = String.raw`(?:is(?:\s+now)?|was|are|were|=|:|of|at|to|set\s+to|(?:raised|lowered|reduced|increased|cut|bumped|changed|goes\s+down|goes\s+up)\s+to)`;

interface Pattern {
  readonly attribute: string;
  /** "<phrase> [of|for <name>] <verb> [about] <value>", with "from <value> to <value>". */
  readonly stated: RegExp;
  /** "<value> <phrase>": "a 512Mi memory limit", "3 replicas". */
  readonly prefixed: RegExp;
}

const PATTERNS: readonly Pattern[] = ATTRIBUTES.map(({ attribute, phrase, value }) => ({
  attribute,
  stated: new RegExp(
    String.raw`\b(?:${phrase})\s+(?:(?:of|for)\s+([a-z][\w-]*)\s+)?(?:from\s+(${value})\s+to|${VERB})\s+(?:about\s+|only\s+|~)?(${value})`,
    'gi',
  ),
  prefixed: new RegExp(String.raw`\b(${value})\s+(?:${phrase})\b`, 'gi'),
}));

/** A binary quantity next to "limit" needs no "memory": the unit says it ("a 256Mi limit still leaves…"). */
const UNIT_LIMIT = new RegExp(String.raw`\b(${MEMORY})\s+limit\b|\blimit\s+of\s+(${MEMORY})`, 'gi');

/** registry/path/name:1.2.3 → (name, image tag, 1.2.3); the tag must look like a version, not a port. */
const IMAGE_REFERENCE = /\b(?:[\w.-]+(?::\d+)?\/)+([a-z0-9][\w.-]*):(v?\d+(?:\.\d+)+[\w.-]*)/gi;

/**
 * Every pattern below needs one of these words, or a ":<digit>" image tag. Testing it first keeps
 * extraction off the ingest critical path for corpora without such statements: over SciFact's
 * 5,183 abstracts (8 MB) the full patterns took 860 ms, the gate leaves most text untouched.
 */
const TRIGGER = /limit|request|replica|image|:v?\d/i;

export const mayStateFacts = (text: string): boolean => TRIGGER.test(text);

export function scanSentence(sentence: string): StatedFact[] {
  if (!TRIGGER.test(sentence)) return [];
  const facts: StatedFact[] = [];
  const lineSubject = subjectOfLine(sentence);
  const push = (attribute: string, raw: string, subject: string | undefined, previous = false) => {
    const value = normalizeValue(attribute, raw);
    const named = subject ?? lineSubject;
    if (value !== undefined) facts.push({ attribute, value, sentence, ...(named ? { subject: named } : {}), ...(previous ? { previous } : {}) });
  };
  const claimed = new Set<number>();
  for (const pattern of PATTERNS) {
    for (const match of sentence.matchAll(pattern.stated)) {
      const subject = match[1] ? match[1].toLowerCase() : subjectBefore(sentence, match.index);
      if (match[2]) push(pattern.attribute, match[2], subject, true);
      push(pattern.attribute, match[3], subject);
      claimed.add(match.index + match[0].length - match[3].length);
    }
    for (const match of sentence.matchAll(pattern.prefixed)) {
      if (!claimed.has(match.index)) push(pattern.attribute, match[1], subjectBefore(sentence, match.index));
      claimed.add(match.index);
    }
  }
  // Ephemeral storage has the same units; a sentence about it is not about memory.
  if (!/\bstorage\b/i.test(sentence)) {
    for (const match of sentence.matchAll(UNIT_LIMIT)) {
      const position = match[1] ? match.index : match.index + match[0].length - match[2].length;
      if (!claimed.has(position)) push('memory limit', match[1] ?? match[2], subjectBefore(sentence, match.index));
      claimed.add(position);
    }
  }
  for (const match of sentence.matchAll(IMAGE_REFERENCE)) push('image tag', match[2], match[1].toLowerCase());
  return facts;
}

/** Prose → sentences: paragraphs and list items are re-joined first because Markdown wraps mid-sentence. */
export function proseSentences(text: string): string[] {
  return text
    .split(/\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.)\s)/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, ' ').trim())
    .filter(Boolean)
    .flatMap((paragraph) => paragraph.split(/(?<=[.!?])\s+(?=[A-Z`*(])/));
}
