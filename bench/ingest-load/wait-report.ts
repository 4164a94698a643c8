/** Lines bench:ingest-load prints from wait-breakdown.ts: each probe kind's parts, the loop's and the threadpool's lag. */
import { percentiles, type Percentiles, type ProbeTiming, type WaitBreakdown } from './wait-breakdown';

const fmt = (ms: number): string => `${ms.toFixed(0)} ms`;
const triple = (label: string, values: Percentiles): string => `${label} p50 ${fmt(values.p50)} p99 ${fmt(values.p99)} max ${fmt(values.max)}`;

/** Per probe kind: late start, waiting for the connection, statements' run time, the rest (scrypt for a sign-in). */
export function describeParts(probes: readonly { readonly kind: string; readonly parts: ProbeTiming }[]): string[] {
  const lines: string[] = [];
  for (const kind of ['sign-in', 'page']) {
    const parts = probes.filter((probe) => probe.kind === kind).map((probe) => probe.parts);
    if (parts.length === 0) continue;
    const of = (pick: (part: ProbeTiming) => number) => percentiles(parts.map(pick));
    const rest = kind === 'sign-in' ? 'password check + turn back' : 'rest (statements overlap)';
    lines.push(`      ${kind} parts: ${triple('late start', of((part) => part.lateMs))}; ${triple('db wait', of((part) => part.dbWaitMs))}; ${triple('db run', of((part) => part.dbRunMs))}; ${triple(rest, of((part) => part.restMs))}`);
  }
  return lines;
}

export function describeWaits(waits: ReturnType<WaitBreakdown['stop']>): string {
  return `  ${triple('event-loop delay', waits.loop)}; ${triple('threadpool lag', waits.threadpool)}`;
}
