/**
 * Writes tuned values into a `context-runtime.yaml`, editing the YAML document in place so the
 * operator's comments, key order and untouched keys survive (the yaml package's Document API keeps
 * comments; a parse → stringify round trip would drop them). The result must still pass the
 * config schema, or nothing is written.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import { configSchema } from '../config/config-schema';
import { invalidInput } from '../errors';

/** Sets each [path, value] and returns the new text; throws INVALID_INPUT if the file would not load. */
export function applyTunedValues(text: string, values: readonly (readonly [readonly string[], unknown])[], origin = 'config'): string {
  const document = parseDocument(text);
  if (document.errors.length > 0) throw invalidInput(origin, document.errors[0].message);
  for (const [path, value] of values) document.setIn([...path], value);
  const next = document.toString();
  const checked = configSchema.safeParse(parseDocument(next).toJS() ?? {});
  if (!checked.success) throw invalidInput(origin, `tuned values would make the config invalid: ${checked.error.issues[0]?.path.join('.')}: ${checked.error.issues[0]?.message}`);
  return next;
}

export function writeTunedValues(path: string, values: readonly (readonly [readonly string[], unknown])[]): void {
  writeFileSync(path, applyTunedValues(existsSync(path) ? readFileSync(path, 'utf8') : '', values, path));
}
