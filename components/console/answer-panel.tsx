import Link from 'next/link';
import { useMemo } from 'react';
import { ThumbsFeedback } from '@/components/feedback/thumbs-feedback';
import type { RunResult } from '@/server/runtime/explain/explain-types';
import type { Citation } from '@/server/runtime/types';
import { AnswerText } from './answer-text';
import { CitationList } from './citation-list';
import styles from './console.module.css';
import { EvidenceDialog } from './evidence-dialog';
import { numberCitations } from './number-citations';
import { RunNotices } from './run-notices';

interface AnswerPanelProps {
  readonly result: RunResult;
  /** Set when the run was started from a quote: its plan hash, to confirm the quoted plan ran. */
  readonly quotedPlanHash: string | null;
  readonly openCitation: { readonly citation: Citation; readonly number: number } | null;
  readonly onOpenCitation: (citation: Citation, number: number) => void;
  readonly onCloseCitation: () => void;
}

/** The answer, what to know before trusting it, and its citations numbered as the answer cites them. */
export function AnswerPanel({ result, quotedPlanHash, openCitation, onOpenCitation, onCloseCitation }: AnswerPanelProps) {
  const numbering = useMemo(() => numberCitations(result.answer ?? '', result.citations), [result.answer, result.citations]);
  const planHash = result.explain.planHash;
  return (
    <section className="panel" aria-labelledby="answer-heading">
      <div className={styles.answerHeader}>
        <h2 id="answer-heading">
          Answer <span className={`status status-${result.status}`}>{result.status.replace('_', ' ')}</span>
        </h2>
        <span>
          {result.answerNodeId ? (
            // The answer is kept as knowledge derived from its citations: it turns stale when a cited source changes.
            <Link href={`/knowledge?node=${encodeURIComponent(result.answerNodeId)}`} className={styles.planLink} data-testid="answer-lineage-link">
              Lineage <span aria-hidden="true">→</span>
            </Link>
          ) : null}{' '}
          <Link href={`/plans/${result.runId}`} className={styles.planLink} data-testid="plan-link">
            Open plan <span aria-hidden="true">→</span>
          </Link>
        </span>
      </div>
      {quotedPlanHash ? (
        <p className={`hint ${styles.quoteNote}`} data-testid="quoted-plan-note">
          {quotedPlanHash === planHash ? (
            <>
              Ran the quoted plan <code>{planHash}</code>.
            </>
          ) : (
            <>
              The plan changed since the quote (<code>{quotedPlanHash}</code> → <code>{planHash}</code>): sources or statistics moved in between.
            </>
          )}
        </p>
      ) : null}
      {result.answer ? <AnswerText answer={result.answer} numbering={numbering} onOpenCitation={onOpenCitation} /> : null}
      {result.status === 'completed' || result.status === 'unverified' ? <ThumbsFeedback key={result.runId} runId={result.runId} /> : null}
      <RunNotices result={result} />
      <h3>Citations</h3>
      <CitationList entries={numbering.entries} onOpen={onOpenCitation} />
      <EvidenceDialog runId={result.runId} citation={openCitation?.citation ?? null} number={openCitation?.number} onClose={onCloseCitation} />
    </section>
  );
}
