/**
 * Kinds of source a goal asks for by name. "Which commit made billing-worker apply migrations at
 * start-up, and who wrote it?" is a conceptual question by its wording, and the conceptual rule
 * narrows to docs — where no commit lives, so the answer could only quote runbooks (issue 10).
 * A goal that says "commit", "log" or "runbook" says where its answer is; every narrowed scope
 * keeps that kind and the scope factor counts it as required.
 */
import { MONTH_NAMES, askedMoments, namesTimeOfDay } from '../text/moment-terms';
import { asksReading } from '../text/reading-question';
import type { SourceKind } from '../types';

const NAMED_KINDS: readonly { readonly kind: SourceKind; readonly words: RegExp }[] = [
  { kind: 'git', words: /\b(?:commits?|committed|git|diffs?|pull requests?|merge requests?)\b/i },
  // A service's warnings and error lines are what it logged at that level ("the 'features missing' warnings on 14 April"; fresh f253).
  // A job's output is what it printed while it ran: its log ("which tests show up in the nightly dbt output"; fresh f357).
  { kind: 'logs', words: /\b(?:logs?|logged|(?:log|stats|status|warning|error) lines?|journal|warnings|(?:warning|error) messages?|(?:console|command|job|run|task|build|dbt|nightly) output)\b/i },
  { kind: 'metrics', words: /\b(?:metrics?|dashboards?|time series)\b/i },
  { kind: 'docs', words: /\b(?:runbooks?|docs?|documentation|handbook|postmortems?|architecture)\b/i },
];

/** The kinds a goal names by word ("commit", "log line", "runbook"), without the ones its events and moments imply. */
export function kindsNamedByWord(goal: string): SourceKind[] {
  return NAMED_KINDS.filter((entry) => entry.words.test(goal)).map((entry) => entry.kind);
}

/**
 * A goal about something that happened at run time names no source, yet its answer is where run
 * time is recorded. "Which session blocked migration 0042 on billing-db?" reads as conceptual and
 * would be narrowed to docs, which only say how to find a blocker; the session is in the database
 * log. Past-tense event verbs of running systems, the processes and sessions that do them, and the
 * questions asking for a cause ("why", "what caused") keep logs in every narrowed scope.
 */
const EVENT_WORDS = new RegExp(
  String.raw`\b(?:why|what caused|what happened|blocked|blocking|deadlock(?:ed)?|crash(?:ed|es)?|panick?ed|hung|stalled|killed|timed out|errored|` +
    String.raw`exceptions?|stack ?traces?|restarted|dead-lettered|rejected|refused|died|sessions?|pids?|processes)\b`,
  'i',
);

/**
 * A goal that names a time of day ("at 09:00 UTC", "at midnight") asks what a system showed at that
 * moment, which is what logs and metrics record and docs do not: "How far behind was the sink at
 * midnight UTC on Sunday?" was narrowed to docs and git and answered from the postmortem's summary.
 * A date alone does not count: commits and documents are dated too; "UTC" names the clock itself.
 */
const UTC = /\butc\b/i;

/**
 * A day named with a question about what a system read or did then: "How much memory was
 * feature-redis using on the evening of 9 April?" (a reading: metrics and logs), "Did eta-api get any
 * malformed requests on 14 April?" (a yes/no question about that day's run: logs). Both were narrowed
 * to docs and git, which hold neither (freight dev d47, d60). So does a wh-question about what happened
 * then: "During the patching on 7 March, to which replicas did the ISR of vehicle-positions-1 shrink?"
 * (fresh f291). A date alone still does not count.
 */
const ASKS_DID = /(?:^|[.?!]\s+)did\b|\b(?:which|what|how)\b[^.?!]*\bdid\b/i;

/**
 * Asked for the time of day something happened on a named day ("at what time on 6 March did it
 * report that group as empty?"): the moment is stamped on the system's own lines; a postmortem's
 * timeline keeps only the moments its author chose (freight dev d65 was narrowed to docs and git).
 * "On Friday 6 March, when did the sink last get a file committed?" asks the same (freight dev d96).
 */
const ASKS_TIME = /\b(?:what time|which time|what minute|when (?:exactly |precisely )?did)\b/i;

/**
 * A job's run, or one try of it, named by its day ("the warehouse_daily_load run for 23 March 2026",
 * "the runs of March 2026", "the 24 March run"): what happened in it is on the job's own lines. Asked
 * how many models dbt reports finding in those runs, the plan was narrowed to docs and git and
 * answered from the runbook's advice to read the log (freight fresh f296).
 */
const MONTH = String.raw`(?:${MONTH_NAMES})\b`;
const DATED_RUN = new RegExp(String.raw`\b(?:runs?|tries|try|attempts?)\s+(?:of|for|on)\s+(?:the\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+)?${MONTH}|\b\d{1,2}\s+${MONTH}(?:\s+\d{4})?\s+(?:run|load|build)s?\b`, 'i');

/**
 * "Did … actually …" sets what a system did against what was planned, merged or written down: "at
 * what time did broker kafka-2 actually apply the new value", "which IAM role did they actually
 * assume". The plan and the change are in docs and commits; what the running system did is on its
 * own lines, and a question with no day to anchor it ("in March") was narrowed to docs and git
 * (freight dev d42, d79). "What was actually wrong with …" asks no such contrast and does not count.
 */
const ASKS_WHAT_ACTUALLY_HAPPENED = /\bdid\b[^.?!]*\bactually\b/i;

/** What the running system did, or what happened in a job's run named by its day: on the system's own lines. */
const asksForOwnLines = (goal: string): boolean => ASKS_WHAT_ACTUALLY_HAPPENED.test(goal) || DATED_RUN.test(goal);

/**
 * The kinds whose best items the context keeps whatever the reranker thinks (assemble's coverKinds):
 * the kinds named by word, and the logs of a "did … actually" question or of a job's run named by its
 * day. Such a question asks for the running system's own account against the plan; the plan's
 * documents outrank its lines under a reranker fitted on prose, and the context held only the
 * postmortem and the commit (freight dev d42: "at what time did broker kafka-2 actually apply the new
 * value", the broker's config line 14th of 20; fresh f296: the runbook's "read the log of the last try"
 * over the run's own "Found 8 models …" line).
 * The other implied kinds are not covered: a why-question's or a dated question's answer is as often
 * in prose, and covering every implied kind forced two log items into each why-question's context.
 */
export function kindsToCover(goal: string): SourceKind[] {
  const kinds = kindsNamedByWord(goal);
  return asksForOwnLines(goal) && !kinds.includes('logs') ? [...kinds, 'logs'] : kinds;
}

/** One-entry memo: the scope rule, the generation key and the cost model's digest each ask for the same goal in a plan. */
let lastGoal: string | undefined;
let lastKinds: readonly SourceKind[] = [];

export function namedSourceKinds(goal: string): SourceKind[] {
  if (goal !== lastGoal) {
    lastKinds = Object.freeze(readNamedKinds(goal));
    lastGoal = goal;
  }
  return [...lastKinds];
}

function readNamedKinds(goal: string): SourceKind[] {
  const kinds = kindsNamedByWord(goal);
  if (EVENT_WORDS.test(goal) || asksForOwnLines(goal)) kinds.push('logs');
  if (namesTimeOfDay(goal) || UTC.test(goal)) kinds.push('logs', 'metrics');
  // The cheap tests first: reading a goal's dates is the costly part.
  const reading = asksReading(goal);
  const asksWhatHappened = ASKS_DID.test(goal) || ASKS_TIME.test(goal);
  if ((reading || asksWhatHappened) && askedMoments(goal).length > 0) kinds.push(...(reading ? (['metrics', 'logs'] as const) : (['logs'] as const)));
  return [...new Set(kinds)];
}
