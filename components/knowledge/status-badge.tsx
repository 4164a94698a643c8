import { statusTone } from './knowledge-format';
import styles from './knowledge.module.css';

/** A node's status, with its reason underneath when there is one (why it is stale, what superseded it). */
export function StatusBadge({ status, reason }: { readonly status: string | null; readonly reason?: string | null }) {
  return (
    <>
      <span className={`${styles.tone} ${styles[`tone-${statusTone(status)}`]}`} data-status={status ?? 'unmirrored'}>
        {status ?? 'not mirrored'}
      </span>
      {reason ? <span className={styles.reason}>{reason}</span> : null}
    </>
  );
}
