/**
 * Settings from configuration text: YAML by indentation (manifests, values files, also a hunk of
 * one inside a diff) and `key = value` lines (.env, .ini, .properties). No YAML parser on purpose:
 * a diff hunk starts mid-document and interleaves two versions of the file, which no parser
 * accepts, while an indentation stack per version reads both.
 */
import { normalizeValue, unquote } from './fact-values';

export interface ConfigSetting {
  readonly attribute: string;
  readonly value: string;
  readonly line: string;
  /** `metadata.name` when the document shows it (it names the subject better than the path). */
  readonly objectName?: string;
  /** In a diff: '+' = the new file says so, '-' = the old file said so; ' ' outside diffs. */
  readonly change: ' ' | '+' | '-';
}

interface Frame {
  readonly indent: number;
  readonly key: string;
}

/** Keys that name or select things: identity, not settings, and noisy to compare. */
const IDENTITY_KEYS = new Set(['apiversion', 'kind', 'name', 'namespace', 'repository', 'path', 'port', 'host', 'secretref', 'configmapref']);
const IDENTITY_PARENTS = new Set(['labels', 'matchlabels', 'selector', 'metadata', 'ports', 'rules', 'paths', 'backend', 'tls']);
/** Structure that adds nothing to a setting's name. */
const NOISE_SEGMENTS = new Set(['spec', 'template', 'containers', 'initcontainers', 'data', 'stringdata', 'metadata', 'annotations']);

const YAML_KEY = /^(\s*)(- )?("[^"]+"|'[^']+'|[^\s:#"'][^:#]*?):(?:\s+(.*?))?\s*$/;

/** Scans YAML lines; `diff` = each line carries a ' ', '+' or '-' marker in column 0. */
export function scanYaml(lines: readonly string[], options: { readonly diff?: boolean } = {}): ConfigSetting[] {
  const stacks: Record<'old' | 'new', Frame[]> = { old: [], new: [] };
  const envNames: Record<'old' | 'new', Map<number, string>> = { old: new Map(), new: new Map() };
  const settings: ConfigSetting[] = [];
  let objectName: string | undefined;
  for (const raw of lines) {
    const change = options.diff ? (raw[0] === '+' || raw[0] === '-' ? raw[0] : ' ') : ' ';
    const content = options.diff ? raw.slice(1) : raw;
    if (!content.trim() || content.trim().startsWith('#') || content.startsWith('---')) continue;
    const match = YAML_KEY.exec(content);
    if (!match) continue;
    const indent = match[1].length + (match[2] ? 2 : 0);
    const key = unquote(match[3]);
    const rawValue = stripComment(match[4] ?? '');
    for (const view of change === '+' ? (['new'] as const) : change === '-' ? (['old'] as const) : (['old', 'new'] as const)) {
      const stack = stacks[view];
      while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
      if (match[2]) envNames[view].delete(indent);
      if (!rawValue || rawValue === '|' || rawValue === '>') {
        stack.push({ indent, key });
        continue;
      }
      const path = [...stack.map((frame) => frame.key), key];
      if (path.length === 2 && path[0] === 'metadata' && key === 'name') objectName = unquote(rawValue);
      // `- name: X` / `value: Y` pairs (container env) read as the setting "env X".
      if (key === 'name' && stack[stack.length - 1]?.key === 'env') envNames[view].set(indent, unquote(rawValue));
      const attribute = key === 'value' && envNames[view].has(indent) ? `env ${envNames[view].get(indent)}` : attributeOf(path);
      if (!attribute || (options.diff && change === ' ')) continue;
      const value = normalizeValue(attribute, rawValue);
      if (value !== undefined) settings.push({ attribute, value, line: content.trim(), change, ...(objectName ? { objectName } : {}) });
    }
  }
  return settings;
}

const KEY_VALUE = /^\s*(?:export\s+)?([A-Za-z_][\w.-]*)\s*[=:]\s*(.*?)\s*$/;

/** `KEY=value` / `key = value` lines with `[section]` prefixes (.env, .ini, .properties, .toml). */
export function scanKeyValues(lines: readonly string[], options: { readonly diff?: boolean } = {}): ConfigSetting[] {
  const settings: ConfigSetting[] = [];
  let section = '';
  for (const raw of lines) {
    const change = options.diff ? (raw[0] === '+' || raw[0] === '-' ? raw[0] : ' ') : ' ';
    const content = options.diff ? raw.slice(1) : raw;
    const header = /^\s*\[([^\]]+)\]\s*$/.exec(content);
    if (header) section = `${header[1].trim()}.`;
    const match = header || /^\s*[#;]/.test(content) ? null : KEY_VALUE.exec(content);
    if (!match || (options.diff && change === ' ')) continue;
    const attribute = `${section}${match[1]}`;
    const value = normalizeValue(attribute, stripComment(match[2]));
    if (value !== undefined) settings.push({ attribute, value, line: content.trim(), change });
  }
  return settings;
}

function stripComment(value: string): string {
  return value.replace(/\s+#.*$/, '').trim();
}

/** resources.limits.memory → "memory limit"; image.tag → "image tag"; others keep their path minus noise. */
export function attributeOf(path: readonly string[]): string | undefined {
  const lower = path.map((segment) => segment.toLowerCase());
  const leaf = lower[lower.length - 1];
  const parent = lower[lower.length - 2];
  if (parent === 'limits' || parent === 'requests') return `${leaf} ${parent === 'limits' ? 'limit' : 'request'}`;
  if (parent === 'image' && leaf === 'tag') return 'image tag';
  if (parent === 'env' && !IDENTITY_KEYS.has(leaf) && leaf !== 'value') return `env ${path[path.length - 1]}`;
  if (leaf === 'replicas') return 'replicas';
  if (IDENTITY_KEYS.has(leaf) || lower.slice(0, -1).some((segment) => IDENTITY_PARENTS.has(segment))) {
    // Annotations live under metadata but are settings (ingress timeouts, body sizes).
    if (!lower.includes('annotations')) return undefined;
  }
  if (lower[0] === 'image' || leaf === 'image') return undefined;
  const kept = path.filter((segment) => !NOISE_SEGMENTS.has(segment.toLowerCase()));
  return kept.length > 0 ? kept.join('.') : undefined;
}
