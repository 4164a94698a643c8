/**
 * Runs learning jobs one at a time, after the current task: a job enqueued while a run is
 * returning starts on a later macrotask (setImmediate), so the judge, the policy update and the
 * database write never add to the response's latency (architecture §6: "Learning runs off the
 * response path"). Serial, so two updates of the same arm cannot interleave and lose one.
 */
export class LearningQueue {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;
  private failed = 0;
  private lastFailure?: string;

  constructor(private readonly onError: (error: unknown) => void = () => undefined) {}

  enqueue(job: () => Promise<void>): void {
    this.waiting += 1;
    this.tail = this.tail
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(job)
      .catch((error: unknown) => {
        this.failed += 1;
        this.lastFailure = error instanceof Error ? error.message : String(error);
        this.onError(error);
      })
      .finally(() => {
        this.waiting -= 1;
      });
  }

  /** Resolves once every job enqueued so far has finished (tests; close()). */
  async drain(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.tail) {
      seen = this.tail;
      await seen;
    }
  }

  status(): { readonly pending: number; readonly failed: number; readonly lastFailure?: string } {
    return { pending: this.waiting, failed: this.failed, ...(this.lastFailure ? { lastFailure: this.lastFailure } : {}) };
  }
}
