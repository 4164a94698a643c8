import type { Intent } from '../types';

/** The detail inside "<name>(detail)" of every signal with that name. */
const detailsOf = (intent: Intent, name: string): string[] =>
  intent.signals.filter((signal) => signal.startsWith(`${name}(`) && signal.endsWith(')')).map((signal) => signal.slice(name.length + 1, -1));

/**
 * One EXPLAIN line saying why the goal was or was not read as a request for a risky action, from
 * the analyzer's signals (planner/action-request.ts): an operator who expected a gate, or did not,
 * sees the reading that decided it. Undefined when the goal neither asks to act nor sounds risky.
 */
export function riskReadingText(intent: Intent): string | undefined {
  const actions = detailsOf(intent, 'high_risk.action');
  if (actions.length > 0) {
    const forms = ['imperative', 'request', 'intention', 'decision'].flatMap((form) => detailsOf(intent, `mood.${form}`).map((cue) => `${form} "${cue}"`));
    const targets = detailsOf(intent, 'high_risk.target');
    return `Risk: high — the goal asks to act: ${actions.join('; ')} (${forms.join(', ')})${targets.length > 0 ? `; on ${targets.join(', ')}` : ''}`;
  }
  const weighed = detailsOf(intent, 'risk.go_no_go_answered');
  if (weighed.length > 0) return `Risk: not high — a go/no-go question, answered from the sources: whether to ${weighed.join('; ')} (nothing is done by answering)`;
  const topics = detailsOf(intent, 'risk.topic_not_action');
  if (topics.length === 0) return undefined;
  const [opener] = detailsOf(intent, 'mood.question');
  return `Risk: not high — ${opener ? `a question ("${opener} …")` : 'a statement'} that asks for no action; ${topics[0]} read as the topic`;
}
