'use client';

/**
 * Thumbs up/down on a finished run. The vote is stored by `learning.feedback` (operator role) and
 * feeds the bandit's reward for the plan that answered, off the response path. Drop in beside the
 * answer: <ThumbsFeedback runId={runResult.runId} /> (only for completed runs).
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import styles from './thumbs-feedback.module.css';

type Thumb = 'up' | 'down';

export function ThumbsFeedback({ runId }: { readonly runId: string }) {
  const trpc = useTRPC();
  const [voted, setVoted] = useState<Thumb | null>(null);
  const vote = useMutation(trpc.learning.feedback.mutationOptions({ onSuccess: (result) => setVoted(result.thumb) }));
  const send = (thumb: Thumb) => vote.mutate({ runId, thumb });
  const failure = vote.error?.message;

  return (
    <div className={styles.feedback} role="group" aria-label="Was this answer useful?" data-testid="run-feedback">
      <span className={styles.prompt}>Useful?</span>
      {(['up', 'down'] as const).map((thumb) => (
        <button
          key={thumb}
          type="button"
          className={`${styles.button} ${voted === thumb ? styles.chosen : ''}`}
          aria-pressed={voted === thumb}
          aria-label={thumb === 'up' ? 'Thumbs up' : 'Thumbs down'}
          disabled={vote.isPending}
          onClick={() => send(thumb)}
          data-testid={`feedback-${thumb}`}
        >
          {/* Words, not emoji: servers and kiosks often lack an emoji font and show empty boxes. */}
          {thumb === 'up' ? 'Yes' : 'No'}
        </button>
      ))}
      {voted && !vote.isPending ? <span className={styles.thanks} role="status">Thanks: recorded for the planner’s learning.</span> : null}
      {failure ? <span className={styles.error} role="alert">{failure}</span> : null}
    </div>
  );
}
