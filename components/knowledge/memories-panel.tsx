'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorMessage } from '@/components/console/error-message';
import { useTRPC } from '@/components/providers/trpc-provider';
import styles from './knowledge.module.css';
import { instantOfLocal } from './knowledge-format';
import { MemoriesTable } from './memories-table';

interface AsOfDraft {
  readonly validAt: string;
  readonly knownAt: string;
  readonly includeFacts: boolean;
}

const NOW: AsOfDraft = Object.freeze({ validAt: '', knownAt: '', includeFacts: false });

/** The query input for a draft: empty instants are left out (the server reads them as now). */
function asOfInput(draft: AsOfDraft) {
  const validAt = instantOfLocal(draft.validAt);
  const knownAt = instantOfLocal(draft.knownAt);
  return {
    ...(validAt ? { validAt } : {}),
    ...(knownAt ? { knownAt } : {}),
    ...(draft.includeFacts ? { kinds: ['memory' as const, 'fact' as const] } : {}),
  };
}

/**
 * Memories read "as of" a valid time and a known time, with the operator's lifecycle actions:
 * expire one (we stop believing it; the row is kept, so an earlier "known at" still shows it) and
 * compact duplicates. Promoting a fact happens on the facts table.
 */
export function MemoriesPanel({ canOperate, onLineage }: { readonly canOperate: boolean; readonly onLineage: (nodeId: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<AsOfDraft>(NOW);
  const [applied, setApplied] = useState<AsOfDraft>(NOW);
  const memories = useQuery({ ...trpc.knowledge.memories.queryOptions(asOfInput(applied)), retry: false });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.knowledge.memories.queryKey() });
  const expire = useMutation(trpc.knowledge.expireMemory.mutationOptions({ onSuccess: refresh }));
  const compact = useMutation(trpc.knowledge.compactMemories.mutationOptions({ onSuccess: refresh }));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setApplied(draft);
  };
  const reset = () => {
    setDraft(NOW);
    setApplied(NOW);
  };

  return (
    <>
      <p className="muted">
        A memory is a fact kept on purpose, with a confidence. Nothing is deleted: expiring one records when we stopped believing it, so a read “known at” an earlier instant still
        shows it. Instants are UTC; empty means now.
      </p>
      <form className={styles.asOf} onSubmit={apply} noValidate aria-label="Memories as of" data-testid="memories-as-of">
        <label className="field">
          <span>Valid at</span>
          <input type="datetime-local" step={1} name="validAt" value={draft.validAt} onChange={(event) => setDraft({ ...draft, validAt: event.target.value })} />
        </label>
        <label className="field">
          <span>Known at</span>
          <input type="datetime-local" step={1} name="knownAt" value={draft.knownAt} onChange={(event) => setDraft({ ...draft, knownAt: event.target.value })} />
        </label>
        <label className="field checkbox">
          <input type="checkbox" checked={draft.includeFacts} onChange={(event) => setDraft({ ...draft, includeFacts: event.target.checked })} />
          <span>include facts</span>
        </label>
        <div className="actions">
          <button type="submit" className="primary">
            Show
          </button>
          <button type="button" onClick={reset}>
            Now
          </button>
          {canOperate ? (
            <button type="button" disabled={compact.isPending} onClick={() => compact.mutate()} data-testid="compact-memories">
              {compact.isPending ? 'Compacting…' : 'Compact duplicates'}
            </button>
          ) : null}
        </div>
      </form>
      {compact.data ? (
        <p className="notice success" role="status" data-testid="compaction-report">
          {compact.data.merged === 0
            ? 'Nothing to compact: no two current memories say the same thing.'
            : `Compaction merged ${compact.data.merged} duplicate memor${compact.data.merged === 1 ? 'y' : 'ies'} into ${compact.data.groups} surviving one${compact.data.groups === 1 ? '' : 's'}.`}
        </p>
      ) : null}
      {compact.error ? <ErrorMessage error={compact.error} /> : null}
      {expire.error ? <ErrorMessage error={expire.error} /> : null}
      {memories.error ? <ErrorMessage error={memories.error} /> : null}
      {memories.data ? (
        <MemoriesTable
          memories={memories.data}
          onExpire={canOperate ? (memoryId) => expire.mutate({ memoryId }) : undefined}
          expiring={expire.isPending ? (expire.variables?.memoryId ?? null) : null}
          onLineage={onLineage}
        />
      ) : memories.isPending ? (
        <p className="muted">Loading memories…</p>
      ) : null}
    </>
  );
}
