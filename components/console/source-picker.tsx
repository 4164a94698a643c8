'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/components/providers/trpc-provider';
import styles from './console.module.css';
import { useHydrated } from '@/components/use-hydrated';

interface SourcePickerProps {
  /** null = every source (the runtime's default, which also picks up sources added later). */
  readonly selected: readonly string[] | null;
  readonly invalid?: boolean;
  readonly onChange: (selected: readonly string[] | null) => void;
}

export function SourcePicker({ selected, invalid, onChange }: SourcePickerProps) {
  const trpc = useTRPC();
  // Disabled until hydrated: a box ticked before would be reset (use-hydrated.ts).
  const hydrated = useHydrated();
  const sources = useQuery(trpc.runtime.sources.queryOptions());
  const names = (sources.data ?? []).map((source) => source.name);
  const isChecked = (name: string) => selected === null || selected.includes(name);

  const toggle = (name: string, checked: boolean) => {
    const current = selected ?? names;
    const next = checked ? [...current, name] : current.filter((candidate) => candidate !== name);
    onChange(names.every((candidate) => next.includes(candidate)) ? null : names.filter((candidate) => next.includes(candidate)));
  };

  return (
    <fieldset className={styles.sources} data-testid="source-picker" aria-invalid={invalid || undefined} aria-describedby={selected !== null && selected.length === 0 ? 'sources-error' : undefined}>
      <legend>Sources</legend>
      {sources.isPending ? <span className="muted">Loading sources…</span> : null}
      {sources.error ? <span className="muted">Sources unavailable: {sources.error.message}</span> : null}
      {sources.data ? (
        <>
          <label className={styles.sourceAll}>
            <input type="checkbox" checked={selected === null} disabled={!hydrated} data-testid="source-all" onChange={(event) => onChange(event.target.checked ? null : [])} />
            <span>All</span>
          </label>
          {sources.data.map((source) => (
            <label key={source.name} className={styles.sourceOption} title={source.stale ? `stale: ${source.staleReason ?? 'newer data exists'}` : undefined}>
              <input type="checkbox" checked={isChecked(source.name)} disabled={!hydrated} data-testid={`source-${source.name}`} onChange={(event) => toggle(source.name, event.target.checked)} />
              <span>{source.name}</span>
              <span className={styles.kind}>{source.kind}</span>
              {source.stale ? <span className={styles.stale}>stale</span> : null}
            </label>
          ))}
          {selected !== null && selected.length === 0 ? (
            // Run stays disabled until one is picked: an empty selection would plan over nothing.
            <span id="sources-error" className={styles.sourceHint} role="alert">
              Pick at least one source.
            </span>
          ) : null}
        </>
      ) : null}
    </fieldset>
  );
}
