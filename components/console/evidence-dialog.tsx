'use client';

import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import type { Citation } from '@/server/runtime/types';
import styles from './console.module.css';
import { ErrorMessage } from './error-message';

interface EvidenceDialogProps {
  readonly runId: string;
  /** The citation to show; null = closed. */
  readonly citation: Citation | null;
  /** Its number as the answer shows it (not the runtime's context ref). */
  readonly number?: number;
  readonly onClose: () => void;
}

/**
 * The chunk a citation points at, as the run retrieved it. A native modal <dialog>: focus moves
 * in and back, Escape closes, the page behind is inert, with no focus-trap code to get wrong.
 */
export function EvidenceDialog({ runId, citation, number, onClose }: EvidenceDialogProps) {
  const trpc = useTRPC();
  const dialog = useRef<HTMLDialogElement>(null);
  const evidence = useQuery({
    ...trpc.console.evidence.queryOptions({ runId, chunkId: citation?.chunkId ?? '' }),
    enabled: citation !== null,
    staleTime: Infinity,
  });

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (citation && !element.open) element.showModal();
    if (!citation && element.open) element.close();
  }, [citation]);

  const chunk = evidence.data;
  return (
    <dialog ref={dialog} className={styles.dialog} aria-labelledby="evidence-title" data-testid="evidence-dialog" onClose={onClose}>
      {citation ? (
        <>
          <header className={styles.dialogHeader}>
            <h2 id="evidence-title">
              [{number ?? citation.ref}] {citation.sourceName}
              {citation.locator ? <span className="muted"> · {citation.locator}</span> : null}
            </h2>
            <button type="button" onClick={() => dialog.current?.close()} autoFocus data-testid="evidence-close">
              Close
            </button>
          </header>
          {evidence.isPending ? <p className="muted">Loading the chunk…</p> : null}
          {evidence.error ? <ErrorMessage error={evidence.error} /> : null}
          {chunk ? (
            <>
              <dl className={styles.evidenceFacts}>
                <dt>Source</dt>
                <dd data-testid="evidence-source">
                  {chunk.sourceName} <span className={styles.kind}>{chunk.sourceKind}</span>
                </dd>
                <dt>Document</dt>
                <dd data-testid="evidence-uri">
                  {chunk.uri ? <code>{chunk.uri}</code> : null}
                  {chunk.uri ? <span className={styles.progressDetail}>{chunk.title}</span> : chunk.title}
                </dd>
                <dt>Version</dt>
                <dd data-testid="evidence-version">
                  {chunk.versionNo !== null ? `v${chunk.versionNo}` : null} <code>{chunk.sourceVersionId}</code>
                  {chunk.superseded ? <span className={styles.stale}>superseded since</span> : null}
                </dd>
                {chunk.locator ? (
                  <>
                    <dt>Locator</dt>
                    <dd>{chunk.locator}</dd>
                  </>
                ) : null}
                <dt>Retrieved by</dt>
                <dd>
                  {chunk.method} · rank {chunk.rank} · {chunk.tokens} tokens
                </dd>
                {chunk.sensitive ? (
                  <>
                    <dt>Sensitive</dt>
                    <dd>holds personal data or secrets: never sent whole to a non-local model</dd>
                  </>
                ) : null}
                <dt>Chunk id</dt>
                <dd>
                  <code>{chunk.chunkId}</code>
                </dd>
              </dl>
              <h3 className={styles.dialogSubheading}>Quoted in the answer</h3>
              <blockquote className={styles.quote}>{citation.quote}</blockquote>
              <h3 className={styles.dialogSubheading}>Chunk text</h3>
              <pre className={styles.chunkText} role="region" aria-label="Chunk text" data-testid="evidence-text" tabIndex={0}>
                {chunk.text}
              </pre>
              {chunk.contextText ? (
                <>
                  <h3 className={styles.dialogSubheading}>As given to the model (compressed)</h3>
                  <pre className={styles.chunkText} role="region" aria-label="Chunk as given to the model" tabIndex={0}>
                    {chunk.contextText}
                  </pre>
                </>
              ) : null}
            </>
          ) : null}
        </>
      ) : null}
    </dialog>
  );
}
