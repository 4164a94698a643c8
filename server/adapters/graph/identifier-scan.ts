import { identifierOf, podWorkloadName } from '../../runtime/planner/identifier-extractor';
import type { Identifier } from '../../runtime/types';

/**
 * Identifiers in chunk text (logs, events, runbooks), found by the planner's own recogniser so a
 * goal and the chunk it names agree on what an identifier is and how it is spelled. Chunk text
 * differs from a goal in one way: logs write `key=value`, `"key": "value"` and `[value]`, so
 * those characters separate tokens here, and the key stays visible as the "previous token"
 * (`status=503` is a status, `request_id=req-42ab` a request id).
 */
const SEPARATORS = /[\s=,;|"'`()[\]{}<>]+/u;
const TRAILING = /[.:!?…]+$/u;
const LEADING = /^[.:#@*]+/u;

/** A pasted 10 MB log line must not produce a million rows for one chunk. */
export const MAX_IDENTIFIERS_PER_CHUNK = 256;

export interface ScannedIdentifier extends Identifier {
  /** Always lower case: the index and the lookup compare lower-cased values. */
  readonly value: string;
}

export function scanIdentifiers(text: string, limit = MAX_IDENTIFIERS_PER_CHUNK): readonly ScannedIdentifier[] {
  const found = new Map<string, ScannedIdentifier>();
  const add = (kind: Identifier['kind'], value: string) => {
    const lower = value.toLowerCase();
    if (!found.has(lower) && found.size < limit) found.set(lower, Object.freeze({ kind, value: lower }));
  };
  let previous = '';
  let beforePrevious = '';
  for (const raw of text.split(SEPARATORS)) {
    if (found.size >= limit) break;
    const token = raw.replace(TRAILING, '').replace(LEADING, '');
    if (token.length === 0) continue;
    const lower = token.toLowerCase();
    const identifier = identifierOf(token, lower, previous, beforePrevious);
    if (identifier) {
      add(identifier.kind, identifier.value);
      // A pod's Deployment is the name people ask about ("checkout-api restarted"), so index it too.
      const workload = identifier.kind === 'pod_name' ? podWorkloadName(lower) : undefined;
      if (workload) add('deployment', workload);
    }
    beforePrevious = previous;
    previous = lower;
  }
  return [...found.values()];
}
