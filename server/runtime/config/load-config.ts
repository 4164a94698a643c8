import { readFileSync, existsSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { ContextRuntimeError } from '../errors';
import { configSchema, type RuntimeConfig } from './config-schema';

/** Formats zod issues as "key.path: problem" so an operator can find the line to fix. */
export function describeConfigIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`);
}

/** Validates an already-parsed config object. */
export function parseConfig(raw: unknown, origin = 'config'): RuntimeConfig {
  const result = configSchema.safeParse(raw ?? {});
  if (!result.success) {
    const problems = describeConfigIssues(result.error.issues);
    const first = result.error.issues[0];
    throw new ContextRuntimeError('INVALID_CONFIG', `${origin} is invalid: ${problems.join('; ')}`, {
      field: first ? first.path.join('.') : undefined,
      details: { problems },
    });
  }
  return result.data;
}

/** Reads and validates `context-runtime.yaml`; a missing file is an error only when a path was given explicitly. */
export function loadConfigFile(path: string, { required }: { required: boolean }): RuntimeConfig {
  if (!existsSync(path)) {
    if (required) throw new ContextRuntimeError('INVALID_CONFIG', `config file not found: ${path}`, { field: 'path' });
    return parseConfig({}, path);
  }
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ContextRuntimeError('INVALID_CONFIG', `${path} is not valid YAML: ${(error as Error).message}`, { cause: error });
  }
  return parseConfig(raw, path);
}
