import type { IngestChunk } from '../runtime/contracts/store';
import { type CountTokens, type TextFile, freezeChunk, lineRangeLocator, splitLines, uriBaseName } from './ingest-types';

/**
 * Markdown and plain text → chunks: split by headings, then by paragraphs packed up to a target.
 * Heading-first splitting keeps a chunk inside one topic (one runbook step), which is what a
 * citation should point at; ~250 tokens with a hard 400 follows the 256–512 token range that
 * retrieval studies found best for passage retrieval (e.g. LlamaIndex's chunk-size evaluation, 2023).
 */

export interface MarkdownParseOptions {
  readonly countTokens: CountTokens;
  readonly targetTokens?: number;
  readonly maxTokens?: number;
}

export const MARKDOWN_TARGET_TOKENS = 250;
export const MARKDOWN_MAX_TOKENS = 400;
/** A document preamble shorter than this (a title and a status line) joins the section after it. */
const PREAMBLE_MAX_TOKENS = 60;

interface Block {
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
}

interface Section {
  readonly headingPath: readonly string[];
  readonly blocks: Block[];
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

function frontMatter(lines: readonly string[]): { title?: string; bodyStart: number } {
  if (lines[0]?.trim() !== '---') return { bodyStart: 0 };
  const end = lines.findIndex((line, index) => index > 0 && (line.trim() === '---' || line.trim() === '...'));
  if (end < 0) return { bodyStart: 0 };
  const titleLine = lines.slice(1, end).find((line) => /^title\s*:/.test(line));
  const title = titleLine?.replace(/^title\s*:\s*/, '').replace(/^["']|["']$/g, '').trim();
  return { title: title || undefined, bodyStart: end + 1 };
}

function splitSections(lines: readonly string[], bodyStart: number): { firstHeading?: string; sections: Section[] } {
  const sections: Section[] = [{ headingPath: [], blocks: [] }];
  const stack: { level: number; text: string }[] = [];
  let firstHeading: string | undefined;
  let fence: string | null = null;
  let open: { startLine: number; lines: string[] } | null = null;
  const close = () => {
    if (open) sections[sections.length - 1].blocks.push({ startLine: open.startLine, endLine: open.startLine + open.lines.length - 1, text: open.lines.join('\n') });
    open = null;
  };
  for (let index = bodyStart; index < lines.length; index++) {
    const line = lines[index];
    const lineNumber = index + 1;
    const fenceMatch = FENCE.exec(line);
    if (fence === null && fenceMatch) fence = fenceMatch[1][0].repeat(3);
    else if (fence !== null && fenceMatch && fenceMatch[1].startsWith(fence)) fence = null;
    else if (fence === null) {
      const heading = HEADING.exec(line);
      if (heading) {
        close();
        const level = heading[1].length;
        while (stack.length > 0 && stack[stack.length - 1].level >= level) stack.pop();
        stack.push({ level, text: heading[2] });
        if (firstHeading === undefined && level === 1) firstHeading = heading[2];
        sections.push({ headingPath: stack.map((entry) => entry.text), blocks: [{ startLine: lineNumber, endLine: lineNumber, text: line }] });
        continue;
      }
      if (line.trim() === '') {
        close();
        continue;
      }
    }
    if (!open) open = { startLine: lineNumber, lines: [] };
    open.lines.push(line);
  }
  close();
  return { firstHeading, sections };
}

/** Cuts a block over the hard limit at line boundaries, and a single giant line at word boundaries. */
function splitOversized(block: Block, countTokens: CountTokens, maxTokens: number): Block[] {
  if (countTokens(block.text) <= maxTokens) return [block];
  const pieces: Block[] = [];
  let current: string[] = [];
  let currentStart = block.startLine;
  const flush = (endLine: number) => {
    if (current.length > 0) pieces.push({ startLine: currentStart, endLine, text: current.join('\n') });
    current = [];
  };
  block.text.split('\n').forEach((line, offset) => {
    const lineNumber = block.startLine + offset;
    if (countTokens(line) > maxTokens) {
      flush(lineNumber - 1);
      let words: string[] = [];
      for (const word of line.split(/(?<=\s)/)) {
        if (words.length > 0 && countTokens(words.join('') + word) > maxTokens) {
          pieces.push({ startLine: lineNumber, endLine: lineNumber, text: words.join('').trimEnd() });
          words = [];
        }
        words.push(word);
      }
      if (words.length > 0) pieces.push({ startLine: lineNumber, endLine: lineNumber, text: words.join('').trimEnd() });
      currentStart = lineNumber + 1;
      return;
    }
    if (current.length > 0 && countTokens([...current, line].join('\n')) > maxTokens) {
      flush(lineNumber - 1);
      currentStart = lineNumber;
    }
    if (current.length === 0) currentStart = lineNumber;
    current.push(line);
  });
  flush(block.startLine + block.text.split('\n').length - 1);
  return pieces;
}

function packSection(blocks: readonly Block[], countTokens: CountTokens, targetTokens: number, maxTokens: number): Block[] {
  const packed: Block[] = [];
  let current: Block | null = null;
  // A heading alone is no passage: retrieved, it cited "## Timeline (UTC)" while its long list sat in
  // the next chunk. The block after a heading is cut with room left for the heading, so they pack together.
  const isHeading = (block: Block | undefined) => block !== undefined && block.text.split('\n').every((line) => HEADING.test(line));
  const pieces = blocks.flatMap((block, index) =>
    splitOversized(block, countTokens, isHeading(blocks[index - 1]) ? maxTokens - countTokens(blocks[index - 1].text) - 1 : maxTokens),
  );
  for (const piece of pieces) {
    if (current) {
      const joined: string = `${current.text}\n\n${piece.text}`;
      if (countTokens(current.text) < targetTokens && countTokens(joined) <= maxTokens) {
        current = { startLine: current.startLine, endLine: piece.endLine, text: joined };
        continue;
      }
      packed.push(current);
    }
    current = piece;
  }
  if (current) packed.push(current);
  return packed;
}

export function parseMarkdown(file: TextFile, options: MarkdownParseOptions): IngestChunk[] {
  const targetTokens = options.targetTokens ?? MARKDOWN_TARGET_TOKENS;
  const maxTokens = options.maxTokens ?? MARKDOWN_MAX_TOKENS;
  const lines = splitLines(file.content);
  const front = frontMatter(lines);
  const { firstHeading, sections } = splitSections(lines, front.bodyStart);
  const documentTitle = front.title ?? firstHeading ?? uriBaseName(file.uri).replace(/\.[^.]+$/, '');
  const chunks: IngestChunk[] = [];
  // The document's preamble ("# Postmortem: …" and its status line) said nothing on its own: retrieved
  // for a title restating the question, it filled a context slot the summary below it did not get
  // (freight tune q01). A preamble this short opens the next section's first chunk instead.
  let preamble: { readonly block: Block; readonly title: string; readonly headingPath: readonly string[] } | undefined;
  const push = (block: Block, title: string, locator: string, headingPath: readonly string[]) => {
    chunks.push(
      freezeChunk({
        uri: file.uri,
        ordinal: chunks.length,
        title,
        text: block.text,
        locator,
        tokens: options.countTokens(block.text),
        metadata: { lineStart: block.startLine, lineEnd: block.endLine, headingPath: Object.freeze([...headingPath]) },
      }),
    );
  };
  const pushPreamble = () => {
    if (preamble) push(preamble.block, preamble.title, lineRangeLocator(preamble.block.startLine, preamble.block.endLine), preamble.headingPath);
    preamble = undefined;
  };
  for (const section of sections) {
    const hasBody = section.blocks.some((block, index) => index > 0 || section.headingPath.length === 0);
    if (!hasBody) continue;
    const path = section.headingPath[0] === documentTitle ? section.headingPath.slice(1) : section.headingPath;
    const title = [documentTitle, ...path].join(' › ');
    const heading = section.headingPath[section.headingPath.length - 1];
    const packed = packSection(section.blocks, options.countTokens, targetTokens, maxTokens);
    if (path.length === 0 && chunks.length === 0 && preamble === undefined && packed.length === 1 && options.countTokens(packed[0].text) < PREAMBLE_MAX_TOKENS) {
      preamble = { block: packed[0], title, headingPath: section.headingPath };
      continue;
    }
    if (preamble && options.countTokens(`${preamble.block.text}\n\n${packed[0].text}`) <= maxTokens) {
      packed[0] = { startLine: preamble.block.startLine, endLine: packed[0].endLine, text: `${preamble.block.text}\n\n${packed[0].text}` };
      preamble = undefined;
    }
    pushPreamble();
    for (const block of packed) push(block, title, packed.length === 1 && heading !== undefined ? `§ ${heading}` : lineRangeLocator(block.startLine, block.endLine), section.headingPath);
  }
  pushPreamble();
  return chunks;
}
