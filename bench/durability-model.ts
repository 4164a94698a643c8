/**
 * The loopback model bench:durability's sections run against: one fixed cited answer, and a
 * verdict for the groundedness judge. These sections are about crashes, outages and load, not
 * verification: with the answer text for the judge's reply too, the judge found no verdict and
 * every run ended `unverified`.
 */
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../server/testing/loopback-openai-server';
import { isJudgeCall, SUPPORTED_VERDICT } from '../server/testing/scripted-answer-model';

export async function startDurabilityModel(delayMs: number): Promise<LoopbackOpenAIServer> {
  const model = await startLoopbackOpenAIServer({ text: 'The checkout-api pods ran out of memory [1].', delayMs });
  model.script((body) => (isJudgeCall(body) ? { text: SUPPORTED_VERDICT } : undefined));
  return model;
}
