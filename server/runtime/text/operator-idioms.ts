import { contentTerms } from './text-terms';

/**
 * Words operators say for what runbooks write otherwise: "do I have to bounce redis?" is answered by
 * "no restart needed", "how does the change reach the box?" by "applied by Ansible" (freight fresh
 * f104). Matched on the question's words, each adds the runbook's word as a query term; the
 * question's own words still count. Only idioms whose meaning does not depend on the system: "page"
 * (an alert) or "ship" (a release) say other things in other questions.
 */
const IDIOMS: readonly (readonly [RegExp, string])[] = [
  // Not "after it kicked in" (took effect; fresh f141).
  [/\b(?:bounce[sd]?|bouncing)\b|\bkick(?:s|ed|ing)?\b(?! (?:in|off|out)\b)/i, 'restart'],
  [/\b(?:bump|bumped|bumping)\b/i, 'raise increase'],
  [/\b(?:reach(?:es)?|land(?:s)?|get(?:s)? (?:rolled out|pushed|deployed))\b(?= (?:[\w-]+ ){0,3}(?:box|boxes|host|hosts|server|servers|vm|vms|cluster|prod|production)\b)/i, 'applied'],
  // "What pushed the new configs there?", "what pushes the new config to the cluster?": what applies it (dev d45).
  [/\bpush(?:es|ed|ing)?\b(?=[^?]*\b(?:configs?|configuration|changes?|there|cluster|prod|production)\b)|\b(?:configs?|configuration|changes?)\b[^?]*\bpush(?:es|ed|ing)?\b/i, 'applied'],
  [/\bprod\b/i, 'production'],
  [/\bcreds\b/i, 'credentials'],
];

/** The runbook words for the idioms the text uses, as content terms; none when it uses none. */
export function idiomTerms(text: string): string[] {
  return [...new Set(IDIOMS.flatMap(([says, means]) => (says.test(text) ? contentTerms(means) : [])))];
}
