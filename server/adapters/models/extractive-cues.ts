/**
 * The reader's cue words (Edmundson 1969): which stemmed terms mark a failure, a resource, a cause
 * or a change in a sentence, which name only a symptom, which name the cause itself, and the
 * connectives of a causal statement. The weights they earn stay with the reader (extractive-reader.ts).
 */
import { FAILURE_CAUSE_SIGNALS } from '../../runtime/execution/failure-signals';
import { ACTION_VERBS } from '../../runtime/planner/risk-lexicon';
import { LIST_MARKER } from '../../runtime/text/sentence-splitter';
import { stem } from '../../runtime/text/text-terms';

const SIGNAL_WORDS: readonly (readonly string[])[] = [
  // failure
  'error errors failed failure fail exception panic crash crashloopbackoff backoff oomkilled killed kill timeout timed refused denied exceeded unavailable evicted unhealthy terminated expired revoked enospc deadlock 500 502 503 504'.split(' '),
  // resource
  'memory cpu limit limits quota disk heap oom throttled throttling saturation connections pool'.split(' '),
  // cause
  'because due caused cause root result resulted triggered after since therefore'.split(' '),
  // change
  'lowered raised increased decreased changed reverted revert rollback rolled deployed deploy bumped reduced set updated merged released config'.split(' '),
];
export const SIGNAL_CATEGORIES: readonly ReadonlySet<string>[] = SIGNAL_WORDS.map((words) => new Set(words.map(stem)));
export const CHANGE_CATEGORY = SIGNAL_CATEGORIES[3];
/**
 * Symptoms follow from any cause, so they cannot tell causes apart: waiting, back-off, probe and
 * deadline lines appear in every failed rollout (Kubernetes' own waiting reasons and probe events).
 * A back-off is the kubelet pausing after a failure, whatever it was, so the *BackOff reasons count
 * as symptoms even though failure-signals lists CrashLoopBackOff for retrieval.
 */
export const SYMPTOM_CUES: ReadonlySet<string> = new Set(
  'waiting backoff back-off readiness liveness probe unhealthy deadline progressdeadlineexceeded restarting pending retrying'.split(' ').map(stem),
);
/** Termination reasons name the cause itself (failure-signals.ts), whatever the question's wording. */
export const CAUSE_CUES: ReadonlySet<string> = new Set(
  [...FAILURE_CAUSE_SIGNALS.filter((signal) => !signal.endsWith('backoff')), 'oom', 'oomkilling', 'sigkill', 'sigsegv', 'sigabrt'].map(stem),
);
/**
 * Conditions that stop a working system without any process dying, named in the evidence however
 * a why-question is worded ("why did X reject records?" — because a certificate expired): expiry and
 * revocation of certificates, keys and leases, exhausted space ("ENOSPC", errno 28), and lock
 * contention — PostgreSQL's lock modes (AccessShareLock … AccessExclusiveLock) and deadlocks. They
 * are the common causes of outages beside crashes in published postmortem surveys (Google SRE
 * book ch. 12; "Why Does the Cloud Stop Computing?", Gunawi et al. SoCC 2016).
 */
const CONDITION_CAUSES: ReadonlySet<string> = new Set(['expired', 'expires', 'expiry', 'revoked', 'enospc', 'deadlock', 'lock', 'locks'].map(stem));
const LOCK_MODE = /^(?:access|row|share|update|exclusive)+lock$/;
export const namesCondition = (term: string) => CONDITION_CAUSES.has(term) || LOCK_MODE.test(term);
/** The connectives of an explicit causal statement answer a why-question only ("What changed?" wants the change, not the reason). */
export const CAUSAL_CONNECTIVES: ReadonlySet<string> = new Set(['because', 'due', 'caused'].map(stem));

/**
 * Verbs that open an instruction in a runbook's prose ("Do it in three steps: add the new field …",
 * "Tell #kdp-data-consumers …"): the imperative mood is how documentation tells you what to do, so in
 * an answer to a how-to question such a sentence is an instruction like a command step. Base forms of
 * the verbs that change a system (the planner's action verbs) and of those that direct the reader.
 */
const DIRECTING_VERBS = [
  'do', 'add', 'tell', 'check', 'open', 'use', 'keep', 'ask', 'read', 'find', 'look', 'compare', 'wait', 'make', 'create', 'fill',
  'write', 'call', 'page', 'post', 'escalate', 'confirm', 'verify', 'note', 'follow', 'start', 'go', 'let', 'agree', 'announce', 'register',
];
const INSTRUCTION_VERBS: ReadonlySet<string> = new Set([...ACTION_VERBS, ...DIRECTING_VERBS]);

/** Whether a sentence opens with a verb in the imperative, after any list marker ("2. Clear the task", "- restart dunning-service"). */
export function opensWithInstruction(text: string): boolean {
  const [first, second] = text.trimStart().replace(LIST_MARKER, '').split(/\s+/, 2).map((word) => word.replace(/[^A-Za-z'-]/g, '').toLowerCase());
  // "Do **not** FLUSHALL": a prohibition says what not to do, not how to do what was asked.
  return first !== undefined && INSTRUCTION_VERBS.has(first) && second !== 'not' && !text.trimEnd().endsWith('?');
}

/**
 * "For a full rebuild of one model use `dbt build --select … --full-refresh` from the dbt-runner pod":
 * a runbook sentence may open with what the instruction is for and still tell you what to run. A verb
 * that directs the reader, right before a quoted command, is an instruction wherever it stands.
 */
const COMMAND_AFTER_VERB = /\b(?:run|use|execute|call|type|enter)\s+`[^`]{3,}`/i;

/**
 * "Loki: `{namespace="eta", app="eta-api"}`", "Airflow UI: `https://airflow.example.internal`": a list of
 * where to look names each tool and what to type into it, an instruction without a verb. Held to the
 * bar of a statement, the handbook's Loki selector lost "how do I pull up the logs in Loki?" to a
 * runbook's redis-cli step (freight fresh f73). A label, a quoted value, and nothing after it but the
 * next such pair: a table row ("Alert: `X`, Fires when: …") goes on with more columns.
 */
const LABELLED_VALUE = /^\s*(?:[-*]\s+)?[A-Z][\w ./-]{0,40}:\s+`[^`]{3,}`\s*(?:[;.]|$)/;

/** Whether a sentence is an instruction: its opening verb, a directing verb right before a quoted command, or a tool's labelled value. */
export function givesInstruction(text: string): boolean {
  return opensWithInstruction(text) || (COMMAND_AFTER_VERB.test(text) && !text.trimEnd().endsWith('?')) || LABELLED_VALUE.test(text);
}
