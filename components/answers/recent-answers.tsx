'use client';

/**
 * What a viewer's console shows: the answers they may read (completed runs over sources their roles
 * may read — the runtime filters), each with its citations, the cited chunks and a link to its plan.
 * A viewer may read runs but not start them, so this replaces the run form rather than disabling it.
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { AnswerText } from '@/components/console/answer-text';
import { CitationList } from '@/components/console/citation-list';
import { ErrorMessage } from '@/components/console/error-message';
import { EvidenceDialog } from '@/components/console/evidence-dialog';
import { numberCitations } from '@/components/console/number-citations';
import { useTRPC } from '@/components/providers/trpc-provider';
import { formatTimestamp } from '@/components/traces/trace-format';
import type { RecentAnswer } from '@/server/runtime';
import type { Citation } from '@/server/runtime/types';
import styles from './recent-answers.module.css';

export function RecentAnswers() {
  const trpc = useTRPC();
  const answers = useQuery({ ...trpc.answers.recent.queryOptions({ limit: 30 }), retry: false });
  const [openRunId, setOpenRunId] = useState<string>();
  const open = answers.data?.find((answer) => answer.runId === openRunId) ?? answers.data?.[0];
  return (
    <div className={styles.layout}>
      <section className="panel" aria-labelledby="answers-heading">
        <h1 id="answers-heading">Answers</h1>
        <p className="notice" role="note">
          You can read the answers below, their citations and their plans. Running, explaining or quoting a goal needs the <strong>operator</strong> role: ask an admin if you need it.
        </p>
        {answers.error ? <ErrorMessage error={answers.error} /> : null}
        {answers.isPending ? <p className="muted">Loading answers…</p> : null}
        {answers.data?.length === 0 ? <p className="muted">No answers you may read yet. Answers appear here once someone with the operator role runs a goal over sources you may read.</p> : null}
        {answers.data && answers.data.length > 0 ? (
          <ul className={styles.list} aria-label="Recent answers">
            {answers.data.map((answer) => (
              <li key={answer.runId}>
                <button type="button" className={styles.item} aria-pressed={answer.runId === open?.runId} aria-describedby={`asked-${answer.runId}`} onClick={() => setOpenRunId(answer.runId)}>
                  <span className={styles.goal}>{answer.goal}</span>
                  <span id={`asked-${answer.runId}`} className={styles.meta}>
                    asked by {answer.user}, {formatTimestamp(answer.createdAt)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        ) : null}
      </section>
      {open ? <AnswerPanel key={open.runId} answer={open} /> : null}
    </div>
  );
}

function AnswerPanel({ answer }: { readonly answer: RecentAnswer }) {
  const [openCitation, setOpenCitation] = useState<Citation | null>(null);
  // The same numbering as the console's: 1..n in the order the answer cites them.
  const numbering = useMemo(() => numberCitations(answer.answer, answer.citations), [answer.answer, answer.citations]);
  return (
    <section className="panel" aria-labelledby="answer-heading">
      <div className={styles.answerHeader}>
        <h2 id="answer-heading">Answer</h2>
        <Link href={`/plans/${encodeURIComponent(answer.runId)}`}>
          Open plan <span aria-hidden="true">→</span>
        </Link>
      </div>
      <p className={styles.question}>
        <strong>{answer.goal}</strong> <span className="muted">— asked by {answer.user}, {formatTimestamp(answer.createdAt)}</span>
      </p>
      <AnswerText answer={answer.answer} numbering={numbering} onOpenCitation={setOpenCitation} />
      {answer.verification ? (
        <p className="muted">
          Checked by {answer.verification.method.replace(/_/g, ' ')} verification: {answer.verification.passed ? 'passed' : 'failed'} ({Math.round(answer.verification.confidence * 100)}% confidence).
        </p>
      ) : null}
      {answer.caveats.length > 0 ? (
        <ul className="notice warning" aria-label="Caveats">
          {answer.caveats.map((caveat) => (
            <li key={caveat}>{caveat}</li>
          ))}
        </ul>
      ) : null}
      <h3>Citations</h3>
      <CitationList entries={numbering.entries} onOpen={setOpenCitation} />
      <EvidenceDialog runId={answer.runId} citation={openCitation} onClose={() => setOpenCitation(null)} />
    </section>
  );
}
