/**
 * Who a fact is about. Facts from a manifest, a pod's log line and a runbook must land on the same
 * subject ("checkout-api") or they can neither agree nor disagree, so pods and ReplicaSets are
 * folded into their workload and file paths into their service folder.
 */

/** kebab-case names: "checkout-api", "cart-service" (what Kubernetes objects are called). */
const KEBAB_NAME = /\b[a-z][a-z0-9]*(?:-[a-z0-9]+)+\b/;

/** Folders that say where manifests live, not whose they are. */
const GENERIC_FOLDERS = new Set(['', '.', 'k8s', 'kubernetes', 'deploy', 'deployment', 'deployments', 'manifests', 'config', 'configs', 'charts', 'templates', 'base', 'overlays', 'helm', 'src', 'etc']);

/**
 * Pod names are <workload>-<pod-template-hash>-<5 chars> (Deployment) or <workload>-<5 chars>
 * (StatefulSet/Job pods differ; they keep their name). The hash is 6–10 lower-case alphanumerics
 * with at least one digit, which keeps real name parts like "-api" or "-service" intact.
 */
const POD_SUFFIX = /-(?=[a-z0-9]*\d)[a-z0-9]{6,10}-[a-z0-9]{5}$/;
const REPLICASET_SUFFIX = /-(?=[a-z0-9]*\d)[a-z0-9]{6,10}$/;

export function workloadOf(name: string): string {
  const lower = name.toLowerCase();
  const withoutPod = lower.replace(POD_SUFFIX, '');
  return withoutPod !== lower ? withoutPod : lower.replace(REPLICASET_SUFFIX, '');
}

/** "k8s/checkout-api/deployment.yaml" → "checkout-api"; "payments.env" → "payments". */
export function subjectFromPath(uri: string): string | undefined {
  const parts = uri.replace(/^[ab]\//, '').split('/').filter(Boolean);
  for (let index = parts.length - 2; index >= 0; index -= 1) {
    const folder = parts[index].toLowerCase();
    if (!GENERIC_FOLDERS.has(folder)) return folder;
  }
  const file = parts[parts.length - 1]?.toLowerCase().replace(/\.[^.]+$/, '');
  return file && !GENERIC_FOLDERS.has(file) ? file : undefined;
}

/** An object a log or event line names: "pod/checkout-api-7d9f8b6c5-x2k4p", `deployment "checkout-api"`. */
const OBJECT_REFERENCE = /\b(?:pod|pods|deployment|deployments|deploy|replicaset|statefulset|daemonset)(?:\.apps)?(?:\/| ")([a-z0-9][a-z0-9.-]*)/i;

export function subjectOfLine(line: string): string | undefined {
  const reference = OBJECT_REFERENCE.exec(line);
  return reference ? workloadOf(reference[1]) : undefined;
}

/** The first kebab-case name in a title ("checkout-api service overview › Memory profile"). */
export function subjectOfTitle(title: string): string | undefined {
  const match = KEBAB_NAME.exec(title.toLowerCase());
  return match ? workloadOf(match[0]) : undefined;
}

/** The word right before an attribute phrase, when it is a name: "checkout-api memory limit", "checkout-api's memory limit". */
export function subjectBefore(text: string, index: number): string | undefined {
  const before = /([a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?:'s)?(?:\s+(?:container|deployment|pod|service))?\s+$/i.exec(text.slice(Math.max(0, index - 80), index));
  return before ? workloadOf(before[1]) : undefined;
}
