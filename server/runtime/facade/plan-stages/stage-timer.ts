/**
 * Times plan()'s named pipeline stages (facade/plan-stages): each stage's own duration under
 * `planner.<name>`, in the order they ran. These become the planner spans of a trace and the
 * per-stage breakdown of bench:plan-overhead (issue 16 point 5).
 */
export class StageTimer {
  readonly started = performance.now();
  private readonly durations: Record<string, number> = {};

  /** Runs one stage and records how long it took (a stage that throws records nothing: the request failed). */
  run<T>(name: string, stage: () => T): T {
    const started = performance.now();
    const result = stage();
    this.durations[`planner.${name}`] = performance.now() - started;
    return result;
  }

  async runAsync<T>(name: string, stage: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await stage();
    this.durations[`planner.${name}`] = performance.now() - started;
    return result;
  }

  /** Records a duration measured inside a stage (planGoal times its own sub-stages). */
  record(name: string, durationMs: number): void {
    this.durations[`planner.${name}`] = durationMs;
  }

  get timings(): Readonly<Record<string, number>> {
    return this.durations;
  }

  /** Since the request started: EXPLAIN's planningMs. */
  elapsed(): number {
    return performance.now() - this.started;
  }
}
