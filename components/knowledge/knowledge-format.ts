/**
 * Formatting for the Knowledge page. UTC and a fixed layout so the server and the browser render
 * the same text (no hydration mismatch), and ids shortened the way the traces page does.
 */

/** "2025-06-02 16:41:00" (UTC) or an em dash for a missing instant. */
export function formatInstant(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toISOString().replace('T', ' ').slice(0, 19);
}

/** First 12 characters after a kind prefix: "ver_1a2b3c4d5e6f…" → "ver_1a2b3c4d5e6f". */
export function shortId(id: string, length = 12): string {
  const prefix = /^[a-z]+_/.exec(id)?.[0] ?? '';
  return id.length <= prefix.length + length ? id : `${id.slice(0, prefix.length + length)}…`;
}

/** A valid-time period: "2025-05-20 09:40:00 → 2025-06-03 08:52:00", open ends shown as "…". */
export function formatPeriod(from: string | null, to: string | null): string {
  if (!from && !to) return 'always';
  return `${from ? formatInstant(from) : '…'} → ${to ? formatInstant(to) : 'now'}`;
}

export type StatusTone = 'ok' | 'warning' | 'danger' | 'muted';

/** current = fine; superseded = history (kept, not wrong); stale/expired = do not rely on it. */
export function statusTone(status: string | null): StatusTone {
  switch (status) {
    case 'current':
      return 'ok';
    case 'superseded':
      return 'muted';
    case 'stale':
      return 'danger';
    case 'expired':
      return 'warning';
    default:
      return 'muted';
  }
}

/** One side of a disagreement: a value as one source states it, with every fact that says so. */
export interface ContradictionSide<Fact extends { readonly value: string; readonly sourceName: string }> {
  readonly value: string;
  readonly sourceName: string;
  readonly facts: readonly Fact[];
}

/** Five OOM log lines saying 256Mi are one side, not five rows: grouped by (value, source), in order. */
export function sidesOf<Fact extends { readonly value: string; readonly sourceName: string }>(facts: readonly Fact[]): ContradictionSide<Fact>[] {
  const sides = new Map<string, { value: string; sourceName: string; facts: Fact[] }>();
  for (const fact of facts) {
    const key = `${fact.value}\u0000${fact.sourceName}`;
    const side = sides.get(key) ?? { value: fact.value, sourceName: fact.sourceName, facts: [] };
    side.facts.push(fact);
    sides.set(key, side);
  }
  return [...sides.values()];
}

/**
 * One table row per side of each disagreement; the first side of a group carries how many rows
 * its subject and attribute cells span (the later sides' `span` is 0: covered from above).
 */
export function contradictionRows<Group extends { readonly facts: readonly { readonly value: string; readonly sourceName: string }[] }>(
  groups: readonly Group[],
): readonly { readonly group: Group; readonly side: ContradictionSide<Group['facts'][number]>; readonly span: number }[] {
  return groups.flatMap((group) => {
    const sides = sidesOf(group.facts);
    return sides.map((side, index) => ({ group, side, span: index === 0 ? sides.length : 0 }));
  });
}

/**
 * A datetime-local value ("2025-06-02T16:41" or with seconds), read as UTC like every instant on
 * this page, as the ISO-8601 string the API takes; empty → undefined (= now). A value the browser
 * let through unparsed is passed on as typed, so the server's message names the field.
 */
export function instantOfLocal(local: string): string | undefined {
  const trimmed = local.trim();
  if (trimmed === '') return undefined;
  const date = new Date(`${trimmed}Z`);
  return Number.isNaN(date.getTime()) ? trimmed : date.toISOString();
}
