/**
 * Memory lifecycle over the graph, after Graphiti's bi-temporal edges (Rasmussen et al., 2025):
 * a memory is a fact the system chose to keep (promote), with a confidence. It ends in one of two
 * ways that must not be confused: superseded (the world changed: valid_to is set, and we still
 * believe it was true before) or expired (we stopped believing it: expired_at, transaction time).
 * Rows are never deleted, so `asOf` can answer "what did we believe on day K about day V".
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { ContextRuntimeError, invalidInput } from '../../runtime/errors';
import { randomNodeId, txQuery } from './knowledge-rows';
import type { AsOf, CompactionReport, KnowledgeNodeView, MemoryFilter, MemoryLifecyclePort } from '../../runtime/contracts/knowledge-explorer';
import { NODE_VIEW_COLUMNS, nodeViewOf } from './lineage-query';

function checkConfidence(confidence: number): void {
  if (!(confidence >= 0 && confidence <= 1)) throw invalidInput('confidence', `must be between 0 and 1, got ${confidence}`);
}

export class MemoryStore implements MemoryLifecyclePort {
  constructor(private readonly database: Database) {}

  /** Keeps a current fact as a memory (derived_from the fact, so it turns stale when the fact's source changes). */
  async promote(factId: string, options: { readonly confidence: number; readonly text?: string; readonly validFrom?: Date }): Promise<KnowledgeNodeView> {
    checkConfidence(options.confidence);
    const id = randomNodeId('mem');
    await this.database.db.transaction(async (tx) => {
      const [fact] = await txQuery<{ kind: string; status: string }>(tx, sql`select kind, status from knowledge_nodes where id = ${factId} for update`);
      if (!fact || fact.kind !== 'fact') throw new ContextRuntimeError('NOT_FOUND', `no fact "${factId}"`, { field: 'factId', details: { factId } });
      if (fact.status !== 'current') throw new ContextRuntimeError('CONFLICT', `fact "${factId}" is ${fact.status}; only a current fact can become a memory`, { field: 'factId' });
      await tx.execute(sql`
        insert into knowledge_nodes (id, kind, source_id, version_id, chunk_id, subject, attribute, value, text, confidence, valid_from, valid_to)
        select ${id}, 'memory', source_id, version_id, chunk_id, subject, attribute, value, coalesce(${options.text ?? null}, text), ${options.confidence}::real,
               coalesce(${options.validFrom ?? null}::timestamptz, valid_from), valid_to
        from knowledge_nodes where id = ${factId}`);
      await tx.execute(sql`insert into knowledge_edges (from_id, to_id, kind) values (${id}, ${factId}, 'derived_from')`);
    });
    return this.get(id);
  }

  /** Stops believing a memory at `at` (default now; a future instant schedules it, a TTL). */
  async expire(memoryId: string, options: { readonly at?: Date; readonly reason?: string } = {}): Promise<KnowledgeNodeView> {
    const memory = await this.get(memoryId);
    const at = options.at ?? new Date();
    if (at < new Date(memory.recordedAt)) throw invalidInput('at', `must not precede the memory's recorded_at (${memory.recordedAt})`);
    await this.database.query(sql`
      update knowledge_nodes
      set expired_at = ${at}::timestamptz,
          status = case when ${at}::timestamptz <= now() then 'expired' else status end,
          status_reason = ${options.reason ?? 'expired'}
      where id = ${memoryId}`);
    return this.get(memoryId);
  }

  /**
   * The world changed: a new memory takes over from `validFrom` (default now). Done the SQL:2011
   * way, not by editing the old row: the old row expires (transaction time) and a copy with its
   * valid period closed at `validFrom` is recorded, so a read as of a moment before this call still
   * sees the old memory as open-ended, which is what was believed then. Edges: new → old
   * supersedes, the closed copy → old supersedes (a revision), and the copy keeps old's origins.
   */
  async supersede(
    memoryId: string,
    replacement: { readonly value: string; readonly confidence: number; readonly text?: string; readonly validFrom?: Date; readonly derivedFrom?: readonly string[] },
  ): Promise<KnowledgeNodeView> {
    checkConfidence(replacement.confidence);
    const old = await this.get(memoryId);
    if (old.status !== 'current') throw new ContextRuntimeError('CONFLICT', `memory "${memoryId}" is ${old.status}; only a current memory can be superseded`, { field: 'memoryId' });
    const validFrom = replacement.validFrom ?? new Date();
    if (old.validFrom && validFrom <= new Date(old.validFrom)) throw invalidInput('validFrom', `must be after the superseded memory's valid_from (${old.validFrom})`);
    const id = randomNodeId('mem');
    const closedCopy = randomNodeId('mem');
    const reason = `superseded by ${id} (${replacement.value}) from ${validFrom.toISOString()}`;
    await this.database.db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into knowledge_nodes (id, kind, source_id, version_id, chunk_id, subject, attribute, value, text, confidence, valid_from)
        select ${id}, 'memory', source_id, version_id, chunk_id, subject, attribute, ${replacement.value},
               ${replacement.text ?? `${old.subject ?? ''} ${old.attribute ?? ''} ${replacement.value}`.trim()}, ${replacement.confidence}::real, ${validFrom}::timestamptz
        from knowledge_nodes where id = ${memoryId}`);
      await tx.execute(sql`
        insert into knowledge_nodes (id, kind, source_id, version_id, chunk_id, subject, attribute, value, text, confidence, valid_from, valid_to, status, status_reason, metadata)
        select ${closedCopy}, 'memory', source_id, version_id, chunk_id, subject, attribute, value, text, confidence, valid_from, ${validFrom}::timestamptz,
               'superseded', ${reason}, metadata || jsonb_build_object('revisionOf', id::text)
        from knowledge_nodes where id = ${memoryId}`);
      await tx.execute(sql`update knowledge_nodes set expired_at = now(), status = 'superseded', status_reason = ${reason} where id = ${memoryId}`);
      await tx.execute(sql`
        insert into knowledge_edges (from_id, to_id, kind)
        select ${closedCopy}, to_id, 'derived_from' from knowledge_edges where from_id = ${memoryId} and kind = 'derived_from'
        union all select ${id}, ${memoryId}, 'supersedes'
        union all select ${closedCopy}, ${memoryId}, 'supersedes'
        union all select ${id}, value, 'derived_from' from jsonb_array_elements_text(${JSON.stringify(replacement.derivedFrom ?? [])}::jsonb)
        on conflict do nothing`);
    });
    return this.get(id);
  }

  /**
   * Merges current memories that say the same thing (subject, attribute, value): the most
   * confident (then oldest) survives with the earliest valid_from and every derived_from link of
   * the others; the others expire with a supersedes edge from the survivor. Confidence is the max,
   * not a noisy-OR: duplicates usually restate one piece of evidence, not independent ones.
   */
  async compact(): Promise<CompactionReport> {
    return this.database.db.transaction(async (tx) => {
      const duplicates = await txQuery<{ survivor: string; duplicate: string }>(tx, sql`
        with ranked as (
          select id, subject, attribute, value,
                 first_value(id) over (partition by subject, attribute, value order by confidence desc nulls last, recorded_at, id) as survivor,
                 count(*) over (partition by subject, attribute, value) as copies
          from knowledge_nodes
          where kind = 'memory' and status = 'current' and valid_to is null and (expired_at is null or expired_at > now())
        )
        select survivor, id as duplicate from ranked where copies > 1 and id <> survivor`);
      if (duplicates.length === 0) return { groups: 0, merged: 0 };
      const payload = JSON.stringify(duplicates);
      const pairs = sql`jsonb_to_recordset(${payload}::jsonb) as pair(survivor text, duplicate text)`;
      await tx.execute(sql`
        insert into knowledge_edges (from_id, to_id, kind)
        select pair.survivor, e.to_id, 'derived_from' from ${pairs} join knowledge_edges e on e.from_id = pair.duplicate and e.kind = 'derived_from'
        on conflict do nothing`);
      await tx.execute(sql`
        update knowledge_nodes n set
          confidence = merged.confidence, valid_from = merged.valid_from
        from (
          select pair.survivor, max(m.confidence) as confidence, min(m.valid_from) as valid_from
          from ${pairs} join knowledge_nodes m on m.id in (pair.survivor, pair.duplicate) group by pair.survivor
        ) merged
        where n.id = merged.survivor`);
      await tx.execute(sql`
        update knowledge_nodes n set status = 'expired', expired_at = now(), status_reason = 'compacted into ' || pair.survivor
        from ${pairs} where n.id = pair.duplicate`);
      await tx.execute(sql`insert into knowledge_edges (from_id, to_id, kind) select survivor, duplicate, 'supersedes' from ${pairs} on conflict do nothing`);
      return { groups: new Set(duplicates.map((pair) => pair.survivor)).size, merged: duplicates.length };
    });
  }

  /** What was believed at `knownAt` (transaction time) to be true at `validAt` (valid time). */
  async asOf(when: AsOf = {}, filter: MemoryFilter = {}): Promise<readonly KnowledgeNodeView[]> {
    const validAt = when.validAt ?? new Date();
    const knownAt = when.knownAt ?? new Date();
    const kinds = JSON.stringify(filter.kinds ?? ['memory']);
    const rows = await this.database.query(sql`
      select ${NODE_VIEW_COLUMNS}
      from knowledge_nodes n left join sources s on s.id = n.source_id left join source_versions v on v.id = n.version_id
      where n.kind in (select value from jsonb_array_elements_text(${kinds}::jsonb))
        and n.recorded_at <= ${knownAt}::timestamptz and (n.expired_at is null or n.expired_at > ${knownAt}::timestamptz)
        and (n.valid_from is null or n.valid_from <= ${validAt}::timestamptz) and (n.valid_to is null or n.valid_to > ${validAt}::timestamptz)
        and (${filter.subject ?? null}::text is null or n.subject = ${filter.subject ?? null})
        and (${filter.attribute ?? null}::text is null or n.attribute = ${filter.attribute ?? null})
      order by n.subject, n.attribute, n.valid_from nulls first, n.id`);
    return Object.freeze(rows.map(nodeViewOf));
  }

  async get(memoryId: string): Promise<KnowledgeNodeView> {
    const [row] = await this.database.query(sql`
      select ${NODE_VIEW_COLUMNS}
      from knowledge_nodes n left join sources s on s.id = n.source_id left join source_versions v on v.id = n.version_id
      where n.id = ${memoryId} and n.kind = 'memory'`);
    if (!row) throw new ContextRuntimeError('NOT_FOUND', `no memory "${memoryId}"`, { field: 'memoryId', details: { memoryId } });
    return nodeViewOf(row);
  }
}
