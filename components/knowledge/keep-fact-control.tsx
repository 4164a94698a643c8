'use client';

import { useState } from 'react';
import styles from './knowledge.module.css';

/** Default confidence for a kept fact: an operator vouching for it, short of certainty. */
const DEFAULT_CONFIDENCE = '0.8';

/** "Keep as memory" on one fact row, with the confidence the operator gives it (checked by the server). */
export function KeepFactControl({ label, busy, onKeep }: { readonly label: string; readonly busy: boolean; readonly onKeep: (confidence: number) => void }) {
  const [confidence, setConfidence] = useState(DEFAULT_CONFIDENCE);
  return (
    <span className={styles.keep}>
      <input
        type="number"
        min={0}
        max={1}
        step={0.05}
        value={confidence}
        aria-label={`Confidence for ${label}`}
        className={styles.confidence}
        data-testid="keep-confidence"
        onChange={(event) => setConfidence(event.target.value)}
      />
      <button type="button" className={styles.linkButton} disabled={busy} onClick={() => onKeep(Number(confidence))} data-testid="keep-as-memory">
        {busy ? 'keeping…' : 'Keep as memory'}
      </button>
    </span>
  );
}
