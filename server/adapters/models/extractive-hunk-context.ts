/**
 * What a diff says of its files beside its changed lines (extractive-block-parser.ts): the files its
 * diffstat lists, the line git prints after a hunk's numbers, and the unchanged comments among its lines.
 */
import { type BlockPiece, openerName, settingPiece } from './extractive-settings';

/**
 * The text git prints after a hunk's line numbers ("@@ -3,8 +3,8 @@ bind 0.0.0.0") is a line of the file
 * above the hunk: by default the nearest one opening at its first column. It is a setting the hunk's
 * context does not show (`bind 0.0.0.0` of a Redis conf whose commit changed `maxmemory` three lines
 * down; freight fresh f333). One opening a block ("driver_segment_source = SnowflakeSource(") sets nothing.
 */
const HUNK_HEADING = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@ (\S.*)$/;

/** The setting a hunk header's heading states, shown with `file`; none for a header without one. */
export function headingSetting(file: string, hunkHeader: string): BlockPiece | undefined {
  const heading = HUNK_HEADING.exec(hunkHeader)?.[1].trimEnd();
  return heading !== undefined && openerName(heading) === undefined ? settingPiece(file, '', heading) : undefined;
}

/**
 * An unchanged comment of a hunk says what the file is or holds, in words: "# Helm values for eta-api in
 * production (Argo CD app eta-api-prod)" names the app that deploys it, which no setting does (freight
 * fresh f120). Quoted with its file; a comment of a word or two ("# limits") is a label, not a statement.
 */
const CONTEXT_COMMENT = /^(?:#(?!!)|\/\/)\s*(\S.*)$/;
const COMMENT_MIN_WORDS = 4;

export function contextComment(file: string, content: string): BlockPiece | undefined {
  const said = CONTEXT_COMMENT.exec(content)?.[1].trim();
  if (said === undefined || said.split(/\s+/).length < COMMENT_MIN_WORDS) return undefined;
  return file ? { text: `${file}: ${said}`, scored: said, role: 'prose' } : { text: said, role: 'prose' };
}

/** A diffstat line (" redis/feature-redis.conf | 4 ++--") and the summary closing the list ("2 files changed, …"). */
const DIFFSTAT_FILE = /^(\S+)\s+\|\s+(?:\d+ [-+]*|Bin .*)$/;
const DIFFSTAT_SUMMARY = /^\d+ files? changed/;
/** An import of a whole repository lists every file: that says nothing of what one change touched. */
const MAX_STATED_FILES = 8;

export const statedFile = (line: string): string | undefined => DIFFSTAT_FILE.exec(line)?.[1];
export const closesDiffstat = (line: string): boolean => DIFFSTAT_SUMMARY.test(line);

/**
 * The files a commit changed, as its diffstat lists them: "which two files did the fix change?" is answered
 * by no changed line, each of which names one file (freight fresh f417). Scored with the commit's subject,
 * by which a question names the change ("the feature-redis fix of 14 April").
 */
export function changedFilesPiece(files: readonly string[], subject: string, commit: { readonly sha: string; readonly author: string }): BlockPiece | undefined {
  if (files.length === 0 || files.length > MAX_STATED_FILES) return undefined;
  const listed = files.join(', ');
  const origin = commit.sha ? ` (commit ${commit.sha}${commit.author ? `, ${commit.author}` : ''})` : '';
  return { text: `files changed: ${listed}${origin}`, scored: `${subject}: files changed: ${listed}`, role: 'files' };
}
