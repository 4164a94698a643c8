/**
 * Settings as a file holds them, read from a diff's lines (extractive-block-parser.ts):
 * "instance_type = \"r6i.2xlarge\"" quoted with its file and the key it sits under, since
 * "type = \"gp3\"" alone names neither.
 */
/** `files`: the files a commit changed, as its diffstat lists them; read only when a question asks which files a change touched. */
export type PieceRole = 'prose' | 'subject' | 'change' | 'row' | 'step' | 'setting' | 'files';

export interface BlockPiece {
  readonly text: string;
  readonly role: PieceRole;
  /** What is scored when it differs from what is shown: a table row is scored without its column names. */
  readonly scored?: string;
}

export const keyValue = (content: string) => /^"?([\w.-]+)"?\s*[:=]\s*(.*)$/.exec(content.trim());

/** A key opening a block of settings ("data_volume = {", "\"resources\": {", "stats = FeatureView("), not code's "if x == nil {". */
const BLOCK_OPENER = /^"?([\w.-]+)"?\s*[:=]\s*(?:[\w.]+\s*)?[{([]$/;
/** HCL's `module "kafka_brokers" {` or `resource "aws_iam_role" "lake_writer" {`. */
const HCL_BLOCK = /^([\w-]+)((?:\s+"[^"]+")+)\s*\{$/;

export interface IndentedLine {
  readonly indent: number;
  readonly content: string;
}

export function openerName(content: string): string | undefined {
  // Not the close of a call that opens a Python block (") as dag:"), which names nothing a key sits under (fresh f393).
  if (content.endsWith(':') && !content.startsWith('#') && !/^[)\]}]/.test(content)) return content.slice(0, -1).replace(/^-\s*/, '');
  const hcl = HCL_BLOCK.exec(content);
  if (hcl) return `${hcl[1]} ${hcl[2].trim().replace(/"/g, '')}`;
  return BLOCK_OPENER.exec(content)?.[1];
}

/** Openers named above a line: its block and the one that block sits in ("eta-requests-audit › config"). */
const PARENT_DEPTH = 2;

/**
 * The keys a line sits under, from the lines above it with less indent: YAML's "limits:" or HCL's
 * "data_volume = {". Without them "type = "gp3"" does not say it is the brokers' data volume's
 * type, and "config: retention.ms: 259200000" does not say which of three topics keeps 3 days.
 */
export function parentKey(lines: readonly IndentedLine[], indent: number): string {
  const names: string[] = [];
  let below = indent;
  for (let index = lines.length - 1; index >= 0 && names.length < PARENT_DEPTH; index -= 1) {
    const line = lines[index];
    const name = line.indent < below && line.content !== '' ? openerName(line.content) : undefined;
    if (name === undefined) continue;
    names.unshift(name);
    below = line.indent;
  }
  return names.join(' › ');
}

/** A call of literals only, "timedelta(days=3)" or "slack_on_failure(\"#dataplat-alerts\")", states a value; "get()" or "load(cfg)" does not. */
const LITERAL_CALL = /^[\w.]+\((?:\s*(?:\w+\s*=\s*)?(?:-?\d[\d._]*|"[^"]*"|'[^']*'|True|False|None|true|false)\s*,?)+\s*\)\s*,?$/;

/**
 * Files whose settings are "key value", without a colon or an equals sign: Redis's `tcp-keepalive 60`,
 * sshd's `PermitRootLogin no`, nginx's `worker_processes 4;` (freight fresh f309, f333).
 */
const SPACE_SEPARATED_CONFIG = /(?:\.conf|_config)$/;
const SPACED_KEY_VALUE = /^([a-z][\w.-]*)\s+([^\s=:].*)$/i;
/** Where such a setting is shown from ("redis/feature-redis.conf: "), before its key: what a reader of its key skips. */
export const SPACED_SETTING_PLACE = /^(?:(?:added|removed):\s*)?\S+(?:\.conf|_config)(?:\s›[^:]*)?:\s+(?=[a-z][\w.-]*\s+[^\s=:])/i;

/**
 * An unchanged "key = value" line of a diff is the setting as the file holds it after the commit:
 * "What instance type do the brokers run on?" is answered by the `instance_type = "r6i.2xlarge"` a
 * commit growing their volumes shows as context, and by no changed line. A block opener, a comment
 * or code ("x := get()", "if x == nil", a call of anything but literals) states no setting.
 */
/** A line's key and value as `file` writes them: "key: value", "key = value", or a `.conf` file's "key value". */
export const settingPair = (file: string, content: string) => keyValue(content) ?? (SPACE_SEPARATED_CONFIG.test(file) ? SPACED_KEY_VALUE.exec(content.trim()) : null);

export function settingPiece(file: string, parent: string, content: string): BlockPiece | undefined {
  const pair = settingPair(file, content);
  if (!pair || /^(#|\/\/)/.test(content)) return undefined;
  const value = pair[2].trim();
  if (value === '' || /^[{[(]$/.test(value) || /^(?::=|=)/.test(value)) return undefined;
  if (value.includes('(') && !LITERAL_CALL.test(value.replace(/\s+#.*$/, ''))) return undefined;
  const where = [file, parent].filter(Boolean).join(' › ');
  return { text: `${where ? `${where}: ` : ''}${content.replace(/\s+/g, ' ')}`, role: 'setting' };
}

/** A line that goes on with the expression of the line above: it opens with a binary operator. */
const CONTINUATION = /^(?:\+|\|\||&&|\|)\s+\S/;

/**
 * `cmds=[…]` then `+ [arg for view in FEATURE_VIEWS for arg in ("--views", view)],`: a line opening with an
 * operator goes on with the setting read from the line right above it, which would otherwise be quoted
 * without its flag (freight fresh f308). The setting with the line joined, or undefined when it does not go on.
 */
export function continuedSetting(last: BlockPiece | undefined, above: string | undefined, content: string): BlockPiece | undefined {
  if (!CONTINUATION.test(content) || last?.role !== 'setting' || last.scored !== undefined || !above || !last.text.endsWith(above.replace(/\s+/g, ' '))) return undefined;
  return { ...last, text: `${last.text} ${content.replace(/\s+/g, ' ')}` };
}
