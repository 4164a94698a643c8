/**
 * (subject, attribute, value) facts from one chunk, without a model: settings from manifests and
 * config (also inside commit diffs), and statements from prose, commit messages and log lines.
 * Valid time comes from the evidence itself: a commit's date for what it adds (valid from) and
 * removes (valid until), a log line's timestamp for what it observed.
 */
import { type ConfigSetting, scanKeyValues, scanYaml } from './config-fact-scanner';
import { subjectFromPath, subjectOfLine, subjectOfTitle } from './fact-subjects';
import { mayStateFacts, proseSentences, scanSentence } from './sentence-fact-scanner';

export interface FactSourceChunk {
  readonly sourceKind: string;
  readonly uri: string;
  readonly title: string;
  readonly text: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

export type FactOrigin = 'config' | 'diff' | 'commit-message' | 'log' | 'prose';

export interface ExtractedFact {
  readonly subject: string;
  readonly attribute: string;
  readonly value: string;
  readonly evidence: string;
  readonly confidence: number;
  readonly origin: FactOrigin;
  readonly validFrom?: Date;
  readonly validTo?: Date;
}

/**
 * Ranks, not calibrated probabilities: a manifest is what the cluster applies, a log line saw the
 * running value, a commit message describes its own diff, prose may describe history or intent.
 */
const CONFIDENCE: Readonly<Record<FactOrigin, number>> = Object.freeze({ config: 0.9, diff: 0.9, log: 0.85, 'commit-message': 0.8, prose: 0.6 });

const YAML_FILE = /\.ya?ml$/i;
const KEY_VALUE_FILE = /(?:^|\/)\.env(?:\.[\w-]+)?$|\.(?:env|ini|properties|conf|cfg|toml)$/i;
const ISO_TIMESTAMP = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})\b/;

export function extractFacts(chunk: FactSourceChunk): ExtractedFact[] {
  const facts: ExtractedFact[] = [];
  if (chunk.sourceKind === 'git') extractFromCommit(chunk, facts);
  else if (chunk.sourceKind === 'logs' || chunk.sourceKind === 'events') extractFromLines(chunk, facts);
  else if (chunk.sourceKind !== 'metrics') extractFromDocument(chunk, facts);
  return dedupe(facts);
}

function extractFromCommit(chunk: FactSourceChunk, facts: ExtractedFact[]): void {
  const date = dateOf(chunk.metadata.date);
  const lines = chunk.text.split('\n');
  const diffStart = lines.findIndex((line) => line.startsWith('diff --git '));
  const header = diffStart < 0 ? lines : lines.slice(0, diffStart);
  const message = header.filter((line) => line.startsWith('    ')).map((line) => line.slice(4)).join('\n');
  const fallback = subjectOfTitle(chunk.title.replace(/^commit \w+:\s*/, ''));
  for (const sentence of proseSentences(message)) addStatements(facts, sentence, fallback, 'commit-message', date);
  if (diffStart < 0) return;
  for (const hunk of diffHunks(lines.slice(diffStart))) {
    const settings = YAML_FILE.test(hunk.file) ? scanYaml(hunk.lines, { diff: true }) : KEY_VALUE_FILE.test(hunk.file) ? scanKeyValues(hunk.lines, { diff: true }) : [];
    for (const setting of settings) addSetting(facts, setting, setting.objectName ?? subjectFromPath(hunk.file), 'diff', date);
  }
}

function extractFromLines(chunk: FactSourceChunk, facts: ExtractedFact[]): void {
  const fallback = subjectOfLine(chunk.title);
  for (const line of chunk.text.split('\n')) {
    const stamp = ISO_TIMESTAMP.exec(line);
    addStatements(facts, line, fallback, 'log', stamp ? dateOf(stamp[0]) : undefined);
  }
}

function extractFromDocument(chunk: FactSourceChunk, facts: ExtractedFact[]): void {
  const pathSubject = subjectFromPath(chunk.uri);
  if (YAML_FILE.test(chunk.uri) || KEY_VALUE_FILE.test(chunk.uri)) {
    const lines = chunk.text.split('\n');
    const settings = YAML_FILE.test(chunk.uri) ? scanYaml(lines) : scanKeyValues(lines);
    for (const setting of settings) addSetting(facts, setting, setting.objectName ?? pathSubject, 'config');
    return;
  }
  const hasFence = chunk.text.includes('```');
  if (!hasFence && !mayStateFacts(chunk.text)) return;
  const fallback = subjectOfTitle(chunk.title);
  const prose = !hasFence ? chunk.text : chunk.text.replace(/^```[ \t]*([\w-]*)[^\n]*\n([\s\S]*?)^```[ \t]*$/gm, (_block, language: string, body: string) => {
    const lines = body.split('\n');
    const settings = /^ya?ml$/i.test(language) ? scanYaml(lines) : /^(ini|env|dotenv|properties|toml|conf)$/i.test(language) ? scanKeyValues(lines) : [];
    for (const setting of settings) addSetting(facts, setting, setting.objectName ?? fallback, 'config');
    return '\n';
  });
  for (const sentence of proseSentences(prose)) addStatements(facts, sentence, fallback, 'prose');
}

function addSetting(facts: ExtractedFact[], setting: ConfigSetting, subject: string | undefined, origin: FactOrigin, date?: Date): void {
  if (!subject) return;
  const when = setting.change === '+' ? { validFrom: date } : setting.change === '-' ? { validTo: date } : {};
  // A removed line without a date would read as still true and contradict its own replacement.
  if (setting.change === '-' && !date) return;
  facts.push({ subject: subject.toLowerCase(), attribute: setting.attribute, value: setting.value, evidence: setting.line, confidence: CONFIDENCE[origin], origin, ...stripUndefined(when) });
}

function addStatements(facts: ExtractedFact[], sentence: string, fallback: string | undefined, origin: FactOrigin, date?: Date): void {
  for (const stated of scanSentence(sentence)) {
    const subject = stated.subject ?? fallback;
    if (!subject || (stated.previous && !date)) continue;
    const when = stated.previous ? { validTo: date } : { validFrom: date };
    facts.push({ subject, attribute: stated.attribute, value: stated.value, evidence: sentence.trim().slice(0, 400), confidence: CONFIDENCE[origin], origin, ...stripUndefined(when) });
  }
}

interface Hunk {
  readonly file: string;
  readonly lines: string[];
}

/** Hunks of a unified diff, each with its file; truncation markers and headers dropped. */
function diffHunks(lines: readonly string[]): Hunk[] {
  const hunks: Hunk[] = [];
  let file = '';
  let current: Hunk | undefined;
  for (const line of lines) {
    const header = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (header) {
      file = header[2];
      current = undefined;
    } else if (line.startsWith('@@')) {
      current = { file, lines: [] };
      hunks.push(current);
    } else if (current && /^[ +-]/.test(line)) {
      current.lines.push(line);
    }
  }
  return hunks;
}

function dedupe(facts: readonly ExtractedFact[]): ExtractedFact[] {
  const byKey = new Map<string, ExtractedFact>();
  for (const fact of facts) {
    const key = `${fact.subject}\u0000${fact.attribute}\u0000${fact.value}\u0000${fact.validTo ? 'until' : 'since'}`;
    const seen = byKey.get(key);
    if (!seen || fact.confidence > seen.confidence || (fact.confidence === seen.confidence && earlier(fact.validFrom, seen.validFrom))) byKey.set(key, fact);
  }
  return [...byKey.values()];
}

const earlier = (left?: Date, right?: Date): boolean => left !== undefined && (right === undefined || left < right);

function dateOf(value: unknown): Date | undefined {
  if (typeof value !== 'string' && !(value instanceof Date)) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function stripUndefined<T extends Record<string, unknown>>(record: T): Partial<T> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Partial<T>;
}
