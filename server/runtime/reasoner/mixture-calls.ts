/**
 * The calls the reasoner mixtures share: one routed model call over a prompt (each call its own
 * graph node, so its tier, estimate and actual are its own), the answering call over the numbered
 * context, and the critic. Sensitive passages follow the single shot's rules (outgoing-context.ts).
 */
import type { ModelMessage } from '../contracts/model';
import type { Finding, ReasonRequest, ReasonResult } from '../contracts/reasoner';
import type { RoutedResult, RouterPlugin } from '../contracts/router';
import { containsSensitive } from '../policy/sensitive-content-detector';
import { parseCitations } from './context-prompt';
import { criticPrompt, parseCritique } from './mixture-prompts';
import { outgoingContext } from './outgoing-context';
import { withOutputSchema } from './output-schema-prompt';

/** A decompose or critic reply: a few short lines, never an essay. */
export const PLANNING_MAX_OUTPUT_TOKENS = 200;

export async function routedCall(request: ReasonRequest, router: RouterPlugin, messages: readonly ModelMessage[], options: { readonly localOnly: boolean; readonly maxOutputTokens: number; readonly outputSchema?: boolean }): Promise<RoutedResult> {
  return router.complete(
    request.tier,
    {
      messages: options.outputSchema ? withOutputSchema(messages, request.outputSchema) : [...messages],
      maxOutputTokens: options.maxOutputTokens,
      timeoutMs: request.timeoutMs,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(options.outputSchema && request.outputSchema ? { outputSchema: request.outputSchema } : {}),
    },
    { localOnly: options.localOnly },
  );
}

/** The mixture's answering call (merge or judge) over the numbered context: cited like a single shot. */
export async function answerOverContext(request: ReasonRequest, router: RouterPlugin, prompt: (context: ReasonRequest['context']) => readonly ModelMessage[]): Promise<ReasonResult> {
  const outgoing = outgoingContext(request, router);
  const call = await routedCall(request, router, prompt(outgoing.context), { localOnly: outgoing.localOnly, maxOutputTokens: request.maxOutputTokens, outputSchema: true });
  const answer = call.text.trim();
  return Object.freeze({
    answer,
    citations: Object.freeze(parseCitations(answer, outgoing.context)),
    modelCalls: Object.freeze([call]),
    ...(outgoing.withheld + outgoing.redacted > 0 ? { sensitivePassages: Object.freeze({ withheld: outgoing.withheld, redacted: outgoing.redacted }) } : {}),
  });
}

/**
 * The critic: each finding's answer against the quotes it cites. A finding that cites nothing is
 * ungrounded without asking (there is nothing to check it against); the model judges the rest, and
 * a finding its reply skips keeps the deterministic verdict (it cites evidence), so a garbled reply
 * never drops every worker. Quotes of a sensitive source, or holding personal data or secrets,
 * keep the call on local tiers.
 */
export async function critiqueFindings(request: ReasonRequest, router: RouterPlugin): Promise<ReasonResult> {
  const findings = (request.findings ?? []).filter((finding) => finding.answer.trim().length > 0);
  const uncited = (finding: Finding) => finding.citations.length === 0;
  const asked = findings.filter((finding) => !uncited(finding));
  const sensitive = new Set(request.sensitiveSources ?? []);
  const localOnly = request.localOnly || asked.some((finding) => finding.citations.some((citation) => sensitive.has(citation.sourceName) || containsSensitive(citation.quote)));
  const call = asked.length > 0 ? await routedCall(request, router, criticPrompt(asked), { localOnly, maxOutputTokens: PLANNING_MAX_OUTPUT_TOKENS }) : undefined;
  const verdicts = parseCritique(call?.text ?? '');
  const critique = findings.map((finding) => {
    if (uncited(finding)) return { slot: finding.slot, grounded: false, critique: 'cites no evidence' };
    const verdict = verdicts.get(finding.slot);
    return verdict ? { slot: finding.slot, ...verdict } : { slot: finding.slot, grounded: true, critique: 'the critic gave no verdict; it cites evidence' };
  });
  const summary = critique.map((entry) => `${entry.slot + 1}: ${entry.grounded ? 'GROUNDED' : 'UNGROUNDED'}${entry.critique ? ` — ${entry.critique}` : ''}`).join('\n');
  return Object.freeze({ answer: summary, citations: Object.freeze([]), modelCalls: Object.freeze(call ? [call] : []), critique: Object.freeze(critique) });
}
