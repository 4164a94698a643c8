import { escapeRegExp } from '../../runtime/text/named-entities';
import { splitSentences } from '../../runtime/text/sentence-splitter';
import { commitMoment } from './extractive-commit-moment';
import { csvFields } from './extractive-csv-fields';
import { changedFilesPiece, closesDiffstat, contextComment, headingSetting, statedFile } from './extractive-hunk-context';
import { type BlockPiece, continuedSetting, parentKey, settingPair, settingPiece } from './extractive-settings';

export type { BlockPiece, PieceRole } from './extractive-settings';

/**
 * Reads a context block by its structure before the extractive reader scores it, so that what is
 * cited is a claim: `git show` output yields its subject line and its rejoined message sentences,
 * a unified diff yields its changed lines (old and new value together), a CSV table yields rows
 * that name their columns, and its unchanged settings ("instance_type = \"r6i.2xlarge\"") yield the
 * file's setting as it stands. Commit headers, diffstats, diff headers (`diff --git`, `index`, `---`,
 * `+++`, `@@`), other unchanged diff lines and table headers say nothing on their own and yield nothing.
 * Any other text goes to the shared sentence splitter unchanged.
 */

const COMMIT_LINE = /^commit [0-9a-f]{7,40}(?: \(.*\))?$/;
const COMMIT_FIELD = /^(?:Author|AuthorDate|Commit|CommitDate|Date|Merge):/;
const DIFF_HEADER = /^(?:diff --git |index [0-9a-f]+\.\.[0-9a-f]+|--- (?:a\/|\/dev\/null)|\+\+\+ (?:b\/|\/dev\/null)|@@ -\d|(?:new|deleted) file mode |similarity index |rename (?:from|to) |Binary files )/;
/** "path/to/file | 4 ++--" and "1 file changed, 2 insertions(+)". */
const DIFFSTAT = /^\S+\s+\|\s+(?:\d+ [-+]*|Bin .*)$|^\d+ files? changed/;
/** `git log` and `git show` indent the message by four spaces. */
const MESSAGE_LINE = /^(?: {4}|\t)/;

/** A line introduced by a colon this long or shorter (a command, a setting, a short list item) belongs to its sentence. */
const MAX_INTRODUCED_LENGTH = 240;
/** Items of one introduced list joined to their lead-in, at most. */
const MAX_LIST_ITEMS = 4;
/** "env:" or "limits:" is a YAML key, not a sentence: only a clause of a few words introduces. */
const MIN_INTRODUCING_WORDS = 4;

/** A fenced code block's lines are one command sequence: it is introduced as a whole, however long. */
const MAX_INTRODUCED_CODE_LENGTH = 600;
/** "## 3. Fix the cause, then restart the failed tasks" over a code block is that command's lead-in. */
const HEADING = /^#{1,6}\s+(?:\d+[.)]\s+)?/;
const MIN_HEADING_WORDS = 3;

interface Sentence {
  readonly text: string;
  /** The whole content of a fenced code block. */
  readonly code: boolean;
  /** It opens a bullet of a list ("- Renaming a field."). */
  readonly listItem?: boolean;
}

/**
 * "Move the messages back with the worker's own tool:" says nothing until the command it
 * introduces; quoted alone, a how-to answer would cite the lead-in and drop the step itself. A
 * sentence ending in a colon is one statement with the short line after it (a command, a value, a
 * list item), as a reader takes it; YAML keys never introduce. A fenced code block is introduced
 * whole, however long (a runbook's two-command check ran past the short-line bound and its lead-in
 * was quoted without it), and a section heading over a code block is that command's lead-in (a
 * runbook step is often "## 3. Restart the failed tasks" and the command, with no sentence between).
 * The joined piece is a 'step': an instruction with what it introduces, what a how-to question asks for.
 */
function joinIntroduced(sentences: readonly Sentence[]): BlockPiece[] {
  const joined: BlockPiece[] = [];
  let section: string | undefined;
  for (let index = 0; index < sentences.length; index += 1) {
    const sentence = sentences[index].text;
    const next = sentences[index + 1];
    const heading = HEADING.test(sentence);
    if (heading) section = sectionLeadIn(sentence);
    const leadIn = heading ? `${sentence.replace(HEADING, '').replace(/[.:]?$/, ':')}` : sentence;
    const introduces =
      next !== undefined &&
      !HEADING.test(next.text) &&
      (heading
        ? next.code && leadIn.split(/\s+/).length >= MIN_HEADING_WORDS && next.text.length <= MAX_INTRODUCED_CODE_LENGTH
        : sentence.endsWith(':') && sentence.split(/\s+/).length >= MIN_INTRODUCING_WORDS && next.text.length <= (next.code ? MAX_INTRODUCED_CODE_LENGTH : MAX_INTRODUCED_LENGTH));
    if (introduces) {
      // "…must be restarted: - roll payments-connector …; - restart dunning-service …": items closed by a
      // semicolon continue the list the lead-in introduces; each is part of the one instruction.
      let text = `${leadIn} ${next.text}`;
      index += 1;
      for (let items = 1; items < MAX_LIST_ITEMS && text.endsWith(';'); items += 1) {
        const item = sentences[index + 1];
        if (item === undefined || item.code || HEADING.test(item.text) || item.text.length > MAX_INTRODUCED_LENGTH) break;
        text = `${text} ${item.text}`;
        index += 1;
      }
      joined.push({ text, role: 'step' });
    } else if (section !== undefined && sentences[index].listItem === true && opensWithGerund(sentence)) joined.push({ text: `${section} ${sentence}`, scored: sentence, role: 'prose' });
    else joined.push({ text: sentence, role: 'prose' });
  }
  return joined;
}

/**
 * A list of gerund phrases under a heading that says what holds for them ("## Needs a migration plan
 * agreed with data-platform", then "- Setting a subject's compatibility to `NONE`, even for a day.")
 * states its claim in the heading: quoted alone, the item said nothing of the plan it needs (freight
 * fresh f54). Such an item is shown after its heading, and scored on its own words as before.
 */
const GERUND_OPENING = /^[A-Z][a-z]{3,}ing\b(?! (?:is|was|are|were)\b)/;
/** Capitalised words ending in "ing" that are not verbs' -ing forms. */
const NOT_GERUNDS = new Set(['During', 'Nothing', 'Something', 'Anything', 'Everything', 'Morning', 'Evening', 'String', 'Thing', 'Things', 'Spring', 'Ceiling', 'Pending']);
const opensWithGerund = (sentence: string) => GERUND_OPENING.test(sentence) && !NOT_GERUNDS.has(sentence.split(/\s/)[0]);

/** A heading as the lead-in of its section's items; none for a question or a numbered step, which state no claim. */
function sectionLeadIn(heading: string): string | undefined {
  const text = heading.replace(HEADING, '').trim();
  if (text.length === 0 || text.endsWith('?') || /^\d/.test(heading.replace(/^#{1,6}\s+/, ''))) return undefined;
  return `${text.replace(/[.:]$/, '')}:`;
}

/** A code fence ("```bash", "```") is markup: left in, it glued itself to the sentence before the command. */
const FENCED_BLOCK = /^[ \t]*(?:```|~~~)[^\n]*\n([\s\S]*?)\n[ \t]*(?:```|~~~)[ \t]*$/gm;
const CODE_FENCE = /^[ \t]*(?:```|~~~)[^\n]*$/gm;

/** Prose sentences of `text`, each marked when a bullet opens it. */
function proseSentences(text: string): Sentence[] {
  return splitSentences(text).map((sentence) => ({ text: sentence, code: false, listItem: new RegExp(String.raw`(?:^|\n)[ \t]*[-*+][ \t]+${escapeRegExp(sentence.slice(0, 24))}`).test(text) }));
}

/** Sentences of the text between code blocks, and each fenced block's content as one piece. */
function sentencesOf(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  let last = 0;
  for (const match of text.matchAll(FENCED_BLOCK)) {
    sentences.push(...proseSentences(text.slice(last, match.index).replace(CODE_FENCE, '')));
    const code = match[1].replace(/\s+/g, ' ').trim();
    if (code.length > 0) sentences.push({ text: code, code: true });
    last = match.index + match[0].length;
  }
  sentences.push(...proseSentences(text.slice(last).replace(CODE_FENCE, '')));
  return sentences;
}

/** "|---|:--:|" under a markdown table's header row. */
const TABLE_SEPARATOR = /^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?$/;
const tableCells = (line: string) => line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
/** A cell saying nothing: empty or a dash. */
const EMPTY_CELL = /^(?:|-|—|–|n\/a)$/i;

/**
 * A markdown table's row means something only with its columns: "| `FeatureRedisMemoryHigh` | …
 * above 90 % of maxmemory | mlplat-oncall |" answers "which rotation gets that page?" only as
 * "Rotation: mlplat-oncall" (freight dev d72 quoted a redis-cli command instead). Each row is one
 * piece naming its columns, scored with them (a handful of rows, unlike a metrics CSV's hundreds
 * where every row would repeat "value" and "unit"); the header row and the separator yield nothing.
 */
function proseWithTables(text: string): BlockPiece[] {
  const lines = text.split(/\r?\n/);
  const pieces: BlockPiece[] = [];
  let plain: string[] = [];
  const flush = () => { if (plain.length > 0) pieces.push(...joinIntroduced(sentencesOf(plain.join('\n')))); plain = []; };
  let index = 0;
  while (index < lines.length) {
    const line = lines[index].trim();
    if (!line.startsWith('|') || !TABLE_SEPARATOR.test(lines[index + 1]?.trim() ?? '')) {
      plain.push(lines[index]);
      index += 1;
      continue;
    }
    flush();
    const columns = tableCells(line);
    for (index += 2; index < lines.length && lines[index].trim().startsWith('|'); index += 1) {
      const cells = tableCells(lines[index]);
      const named = cells.flatMap((cell, column) => (EMPTY_CELL.test(cell) ? [] : [columns[column] ? `${columns[column]}: ${cell}` : cell]));
      if (named.length > 0) pieces.push({ text: named.join(', '), role: 'prose' });
    }
  }
  flush();
  return pieces;
}

const prose = (text: string): BlockPiece[] => (text.includes('|') ? proseWithTables(text) : joinIntroduced(sentencesOf(text)));

interface ChangedLine {
  readonly sign: string;
  readonly content: string;
  /** The nearest less-indented "key:" above it, so "memory: 256Mi" reads as a limit, not a request. */
  readonly parent: string;
}

/**
 * A line of string literals and nothing else, as a value wrapped over lines is written
 * (`"cd /opt/kdp/dbt && dbt build "`); not a key and its value (`"tasks.max": "2",`). One ending in a
 * comma is a list's element, not the first half of a joined string.
 */
const LITERAL = String.raw`(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')`;
const STRING_LINE = new RegExp(String.raw`^\s*${LITERAL}(?:\s+${LITERAL})*\s*,?\s*$`);

/**
 * A comment wrapped over several changed lines ("# Migrations are applied by hand (…). Migrating at
 * start" / "# turned a lock wait into a restart loop") is one sentence: quoted line by line, the
 * answer would cite half of it. So is a string wrapped over lines of one value, which the language
 * joins: a DAG's `bash_command=("… dbt build --threads 8 " "--select tag:daily …")` answered "how many
 * threads" with its first line and "which models does it select" with nothing (freight fresh f123).
 */
function joinedComments(lines: readonly ChangedLine[]): ChangedLine[] {
  const joined: ChangedLine[] = [];
  for (const line of lines) {
    const previous = joined[joined.length - 1];
    const comment = /^\s*(#|\/\/)\s?(.*)$/.exec(line.content);
    const previousComment = previous ? /^\s*(#|\/\/)/.exec(previous.content) : null;
    if (comment && previous && previousComment && previous.sign === line.sign && previousComment[1] === comment[1] && !/[.!?:]$/.test(previous.content.trim())) {
      joined[joined.length - 1] = { ...previous, content: `${previous.content.trimEnd()} ${comment[2].trim()}` };
    } else if (previous && previous.sign === line.sign && previous.parent === line.parent && STRING_LINE.test(line.content) && STRING_LINE.test(previous.content) && !previous.content.trimEnd().endsWith(',')) {
      joined[joined.length - 1] = { ...previous, content: `${previous.content.trimEnd()} ${line.content.trim()}` };
    } else joined.push(line);
  }
  return joined;
}

/**
 * One run of changed lines of `file` as "limits: memory: 512Mi → 256Mi" (old and new value of one key
 * together), else "added: …" / "removed: …". Each is shown with its file, as a setting is ("helm/eta-api/
 * values-production.yaml › resources › limits: memory: 512Mi → 256Mi"): "which file do I edit to change
 * the start time?" is answered by the schedule's change only with the DAG file it is in (freight fresh
 * f288). It is scored on its words without the file's, as before.
 */
function changePieces(lines: readonly ChangedLine[], file: string): BlockPiece[] {
  const run = joinedComments(lines);
  const removed = run.filter((line) => line.sign === '-');
  const paired = new Set<number>();
  const prefixed = (line: ChangedLine, text: string, where: readonly string[]) => {
    const path = [...where, line.parent].filter(Boolean).join(' › ');
    return path ? `${path}: ${text}` : text;
  };
  const piece = (shown: (where: readonly string[]) => string): BlockPiece => {
    const scored = shown([]);
    return file ? { text: shown([file]), scored, role: 'change' } : { text: scored, role: 'change' };
  };
  const pieces: BlockPiece[] = [];
  // `maxmemory-policy allkeys-lru` → `noeviction` in a .conf file is one key's change too (freight fresh f231).
  const pairOf = (line: ChangedLine) => settingPair(file, line.content);
  for (const added of run.filter((line) => line.sign === '+')) {
    const pair = pairOf(added);
    const match = pair ? removed.findIndex((line, index) => !paired.has(index) && pairOf(line)?.[1] === pair[1]) : -1;
    if (pair && match !== -1) {
      paired.add(match);
      const before = pairOf(removed[match])?.[2];
      pieces.push(piece((where) => prefixed(added, `${pair[1]}: ${before} → ${pair[2]}`, where)));
    } else pieces.push(piece((where) => `added: ${prefixed(added, added.content.trim(), where)}`));
  }
  removed.forEach((line, index) => {
    if (!paired.has(index)) pieces.push(piece((where) => `removed: ${prefixed(line, line.content.trim(), where)}`));
  });
  return pieces;
}

/** Commits, diffs and plain text, line by line. */
function gitPieces(text: string): BlockPiece[] {
  const pieces: BlockPiece[] = [];
  let state: 'text' | 'fields' | 'message' | 'hunk' = 'text';
  let plain: string[] = [];
  let paragraph: string[] = [];
  let paragraphs = 0;
  let run: ChangedLine[] = [];
  const hunk: { indent: number; content: string }[] = [];
  let file = '';
  // A file the commit creates ("--- /dev/null"): its added lines are the file as it stands, so a
  // setting among them is quoted as one ("helm/eta-api/values-production.yaml › resources: limits:
  // {memory: 3Gi}"), with the file that names whose it is; "added: limits: …" named neither.
  let created = false;
  const flushPlain = () => { pieces.push(...prose(plain.join('\n'))); plain = []; };
  const flushRun = () => { pieces.push(...changePieces(run, file)); run = []; };
  // A message paragraph is hard-wrapped at ~72 columns: rejoined, a sentence is one unit; the first paragraph is the subject.
  // Which commit and whose: "which commit did X, who wrote it" is answered by the subject line only with them.
  // A message sentence carries its commit too: "which commit made the staging model handle the new field?"
  // was answered by a sentence of the right commit's message that never said which commit it was.
  // And when: "when did the subject go back to BACKWARD, and who flipped it?" (freight dev d52).
  let commit = { sha: '', author: '', day: '' };
  const subjectPiece = (subject: string): BlockPiece => {
    const origin = [commit.sha && `commit ${commit.sha}`, commit.author, commit.day].filter(Boolean).join(', ');
    return origin ? { text: `${subject} (${origin})`, role: 'subject', scored: subject } : { text: subject, role: 'subject' };
  };
  // And whose, as the subject says: "who changed the DAG's start time, and what share went missing?" was
  // answered by the body sentence with the share, which never said who (freight dev d69).
  const bodyPieces = (body: string): BlockPiece[] => {
    const origin = commit.sha ? [`commit ${commit.sha}`, commit.author].filter(Boolean).join(', ') : '';
    return prose(body).map((piece) => (origin ? { ...piece, text: `${piece.text.replace(/\.$/, '')} (${origin}).`, scored: piece.scored ?? piece.text } : piece));
  };
  // The files its diffstat lists, and its subject, which names the change they are quoted with (extractive-hunk-context.ts).
  let statFiles: string[] = [];
  let subject = '';
  // A hunk's heading or comment repeated by a later hunk of the same file is quoted once.
  const pushOnce = (piece: BlockPiece | undefined) => {
    if (piece && !pieces.some((other) => other.text === piece.text)) pieces.push(piece);
  };
  const flushParagraph = () => {
    const joined = paragraph.join(' ');
    if (joined.length > 0 && paragraphs === 0) subject = joined;
    if (joined.length > 0) pieces.push(...(paragraphs++ === 0 ? [subjectPiece(joined)] : bodyPieces(joined)));
    paragraph = [];
  };
  // A line opening with an operator goes on with the setting right above it (extractive-settings.ts).
  const continuesSetting = (content: string): boolean => {
    const continued = continuedSetting(pieces[pieces.length - 1], hunk[hunk.length - 1]?.content, content);
    if (continued) pieces[pieces.length - 1] = continued;
    return continued !== undefined;
  };
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (state === 'message') {
      if (MESSAGE_LINE.test(line) || trimmed === '') {
        if (trimmed === '') flushParagraph();
        else paragraph.push(trimmed);
        continue;
      }
      flushParagraph();
      state = 'text';
    }
    if (state === 'hunk') {
      const indent = line.length - 1 - line.slice(1).trimStart().length;
      if (/^[-+]/.test(line) && !DIFF_HEADER.test(line)) {
        const parent = parentKey(hunk, indent);
        if (created && line.startsWith('+') && continuesSetting(trimmed.slice(1).trim())) {
          hunk.push({ indent, content: trimmed.slice(1).trim() });
          continue;
        }
        const setting = created && line.startsWith('+') ? settingPiece(file, parent, trimmed.slice(1).trim()) : undefined;
        if (setting) {
          flushRun();
          pieces.push(setting);
          hunk.push({ indent, content: trimmed.slice(1).trim() });
          continue;
        }
        run.push({ sign: line[0], content: line.slice(1), parent });
        hunk.push({ indent, content: trimmed.slice(1).trim() });
        continue;
      }
      flushRun();
      if (/^[ \\]/.test(line) || trimmed === '') {
        if (line.startsWith(' ') && continuesSetting(trimmed)) {
          hunk.push({ indent, content: trimmed });
          continue;
        }
        const setting = line.startsWith(' ') ? settingPiece(file, parentKey(hunk, indent), trimmed) : undefined;
        if (setting) pieces.push(setting);
        if (line.startsWith(' ')) pushOnce(contextComment(file, trimmed));
        hunk.push({ indent, content: trimmed });
        continue;
      }
      state = 'text';
    }
    if (COMMIT_LINE.test(trimmed)) { flushPlain(); state = 'fields'; commit = { sha: trimmed.slice(7, 14), author: '', day: '' }; continue; }
    if (state === 'fields' && COMMIT_FIELD.test(trimmed)) {
      const author = /^Author:\s*([^<]+?)\s*(?:<.*)?$/.exec(trimmed);
      if (author) commit = { ...commit, author: author[1] };
      const day = /^(?:Author)?Date:\s*(.+)$/.exec(trimmed);
      if (day && !commit.day) commit = { ...commit, day: commitMoment(day[1]) };
      continue;
    }
    if (state === 'fields' && trimmed === '') { state = 'message'; paragraphs = 0; continue; }
    if (DIFF_HEADER.test(line) || DIFFSTAT.test(trimmed)) {
      flushPlain();
      const statFile = statedFile(trimmed);
      if (statFile) statFiles.push(statFile);
      if (closesDiffstat(trimmed)) {
        const stat = changedFilesPiece(statFiles, subject, commit);
        if (stat) pieces.push(stat);
        statFiles = [];
      }
      const diffed = /^diff --git a\/(\S+)/.exec(line);
      if (diffed) [file, created] = [diffed[1], false];
      if (line.startsWith('--- /dev/null')) created = true;
      if (line.startsWith('@@')) {
        state = 'hunk';
        hunk.length = 0;
        pushOnce(headingSetting(file, line));
      }
      continue;
    }
    state = 'text';
    plain.push(line);
  }
  if (state === 'message') flushParagraph();
  flushRun();
  flushPlain();
  return pieces;
}

/** A CSV block whose first line names its columns: each row as "value: 255, unit: MiB, threshold: 256"; the header alone is no claim. */
function tablePieces(text: string): BlockPiece[] | undefined {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
  const header = lines.length >= 2 ? csvFields(lines[0]) : undefined;
  if (!header || !header.every((name) => /^[A-Za-z_][\w .%/()-]*$/.test(name))) return undefined;
  const rows = lines.slice(1).map((line) => ({ line, fields: csvFields(line) }));
  if (rows.filter((row) => row.fields?.length === header.length).length < 0.8 * rows.length) return undefined;
  return rows.flatMap(({ line, fields }) => fields?.length === header.length
    ? [{ text: header.map((name, index) => (fields[index] === '' ? '' : `${name}: ${fields[index]}`)).filter(Boolean).join(', '), role: 'row' as const, scored: line }]
    : prose(line));
}

/** The cited pieces of one context block, in order. */
export function blockPieces(text: string): BlockPiece[] {
  return tablePieces(text) ?? gitPieces(text);
}
