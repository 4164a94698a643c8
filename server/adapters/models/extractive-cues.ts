/**
 * The reader's cue words (Edmundson 1969): which stemmed terms mark a failure, a resource, a cause
 * or a change in a sentence, which name only a symptom, which name the cause itself, and the
 * connectives of a causal statement. The weights they earn stay with the reader (extractive-reader.ts).
 */
import { FAILURE_CAUSE_SIGNALS } from '../../runtime/execution/failure-signals';
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
