/**
 * Reads of the contradicts edges: grouped by subject and attribute, with every fact valid now on
 * that key (so the reader sees all sides, not only the pair that tripped the edge).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import type { Contradiction } from '../../runtime/contracts/knowledge';
import type { ContradictionFact, ContradictionGroup } from '../../runtime/contracts/knowledge-explorer';
import { jsonList, toIso } from './knowledge-rows';

interface FactRow extends Record<string, unknown> {
  readonly id: string;
  readonly subject: string;
  readonly attribute: string;
  readonly value: string;
  readonly chunk_id: string;
  readonly text: string;
  readonly confidence: number | null;
  readonly valid_from: Date | string | null;
  readonly source_name: string;
  readonly locator: string | null;
}

export interface ContradictionFilter {
  /** Only keys with a contradicting fact drawn from one of these chunks. */
  readonly chunkIds?: readonly string[];
  /** Only keys with a contradicting fact from one of these sources. */
  readonly sourceNames?: readonly string[];
}

export async function contradictionGroups(database: Database, filter: ContradictionFilter = {}): Promise<ContradictionGroup[]> {
  if (filter.chunkIds?.length === 0 || filter.sourceNames?.length === 0) return [];
  const conditions: SQL[] = [sql`true`];
  if (filter.chunkIds) conditions.push(sql`n.chunk_id in ${jsonList(filter.chunkIds)}`);
  if (filter.sourceNames) conditions.push(sql`n.source_id in (select id from sources where name in ${jsonList(filter.sourceNames)})`);
  const rows = await database.query<FactRow>(sql`
    with keys as (
      select distinct n.subject, n.attribute
      from knowledge_edges e join knowledge_nodes n on n.id in (e.from_id, e.to_id)
      where e.kind = 'contradicts' and e.expired_at is null and ${sql.join(conditions, sql` and `)}
    )
    select n.id, n.subject, n.attribute, n.value, n.chunk_id, n.text, n.confidence, n.valid_from, s.name as source_name, c.locator
    from knowledge_nodes n
    join keys k on k.subject = n.subject and k.attribute = n.attribute
    join sources s on s.id = n.source_id
    left join chunks c on c.id = n.chunk_id
    where n.kind = 'fact' and n.status = 'current' and n.valid_to is null and n.expired_at is null
    order by n.subject, n.attribute, n.value, s.name, n.id`);
  const groups = new Map<string, { subject: string; attribute: string; facts: ContradictionFact[] }>();
  for (const row of rows) {
    const key = `${row.subject}\u0000${row.attribute}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { subject: row.subject, attribute: row.attribute, facts: [] }));
    group.facts.push(
      Object.freeze({
        factId: row.id,
        value: row.value,
        sourceName: row.source_name,
        chunkId: row.chunk_id,
        locator: row.locator,
        evidence: row.text,
        confidence: row.confidence === null ? null : Number(row.confidence),
        validFrom: toIso(row.valid_from),
      }),
    );
  }
  // A key whose other side expired since the edge was written is no longer a disagreement.
  return [...groups.values()].filter((group) => new Set(group.facts.map((fact) => fact.value)).size > 1).map((group) => Object.freeze({ ...group, facts: Object.freeze(group.facts) }));
}

/**
 * The contract's shape: one entry per (value, source), preferring a chunk from the caller's set as
 * the cited one, so a caveat reads "256Mi (demo-git) vs 512Mi (demo-docs)" and can point at evidence.
 */
export function toContradiction(group: ContradictionGroup, preferredChunks: ReadonlySet<string> = new Set()): Contradiction {
  const byValueAndSource = new Map<string, ContradictionFact>();
  for (const fact of group.facts) {
    const key = `${fact.value}\u0000${fact.sourceName}`;
    const seen = byValueAndSource.get(key);
    if (!seen || (!preferredChunks.has(seen.chunkId) && preferredChunks.has(fact.chunkId))) byValueAndSource.set(key, fact);
  }
  return Object.freeze({
    subject: group.subject,
    attribute: group.attribute,
    values: Object.freeze([...byValueAndSource.values()].map((fact) => Object.freeze({ value: fact.value, sourceName: fact.sourceName, chunkId: fact.chunkId }))),
  });
}
