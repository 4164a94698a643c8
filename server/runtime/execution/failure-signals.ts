/**
 * Words that name the *cause* of a failure in operational data — how a container or process
 * died — as opposed to its symptoms (probe failures, back-offs, progress deadlines), which
 * follow from any cause and so cannot tell causes apart. An incident goal rarely names its cause
 * ("why did X fail?"), while the evidence always does ("OOMKilled", "Evicted", "panic"), so the
 * first retrieval hop adds these; the feedback hop then follows the cause's own terms (memory,
 * limit, 256Mi) to the change that introduced it. General Kubernetes/SRE vocabulary: the
 * container termination reasons and pod failure reasons of the Kubernetes API, plus the words
 * runtimes print when a process dies. (Not "killed": it stems to "kill" and matches routine
 * "Killing" events of every rollout.)
 */
export const FAILURE_CAUSE_SIGNALS: readonly string[] = Object.freeze([
  'oomkilled',
  'evicted',
  'crashloopbackoff',
  'imagepullbackoff',
  'errimagepull',
  'createcontainerconfigerror',
  'failedscheduling',
  'panic',
  'fatal',
  'exception',
  'segfault',
]);
