import { describe, expect, it } from 'vitest';
import { buildContextPrompt, fencedPassage, formatContextHeader } from '../../server/runtime/reasoner/context-prompt';
import type { ContextItem } from '../../server/runtime/types';
import { JUDGE_SYSTEM_PROMPT } from '../../server/runtime/verification/groundedness-judge';
import { isJudgeCall, scriptedJudgement } from '../../server/testing/scripted-answer-model';
import { seededRandom } from '../planner-goals';
import { lognormalDraw, normalDraw, replyFrom } from './priced-tier';

const item = (ref: number, text: string) => ({ ref, text, hit: { title: `doc ${ref}`, sourceName: 'runbooks', locator: undefined } }) as unknown as ContextItem;

describe('priced calibration tier', () => {
  it('draws standard normals: mean ≈ 0, sd ≈ 1 over many seeded draws', () => {
    const random = seededRandom(1);
    const draws = Array.from({ length: 20_000 }, () => normalDraw(random));
    const mean = draws.reduce((sum, value) => sum + value, 0) / draws.length;
    const sd = Math.sqrt(draws.reduce((sum, value) => sum + (value - mean) ** 2, 0) / draws.length);
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(Math.abs(sd - 1)).toBeLessThan(0.03);
  });

  it('draws lognormals around the median, right-skewed, the same for the same seed', () => {
    const draw = (seed: number) => Array.from({ length: 5000 }, ((random) => () => lognormalDraw(random, 120, 0.5))(seededRandom(seed)));
    const values = draw(2).sort((a, b) => a - b);
    expect(values[2500]).toBeGreaterThan(110);
    expect(values[2500]).toBeLessThan(130);
    expect(values[4750] - values[2500]).toBeGreaterThan(values[2500] - values[250]);
    expect(values.every((value) => value > 0)).toBe(true);
    expect(draw(2).sort((a, b) => a - b)).toEqual(values);
  });

  it('replies with a verbatim run of the first passage\'s words, citing it', () => {
    const prompt = buildContextPrompt('Why did checkout fail?', [item(2, 'Checkout pods ran out of memory after the 2.3 deploy.'), item(3, 'Unrelated.')])[1].content;
    expect(replyFrom(prompt, 4)).toBe('Checkout pods ran out [2].');
    // Shorter than asked: all of it, never cycled into something the passage does not say.
    expect(replyFrom(prompt, 40)).toBe('Checkout pods ran out of memory after the 2.3 deploy [2].');
    expect(replyFrom('', 2)).toBe('context [1].');
  });

  it('the strict judge finds such a reply supported by the passage it cites', () => {
    const context = [item(1, 'Checkout pods ran out of memory after the 2.3 deploy. Rolled back at noon.')];
    const reply = replyFrom(buildContextPrompt('Why did checkout fail?', context)[1].content, 6);
    const judgeUser = `Question: Why did checkout fail?\n\nContext:\n${formatContextHeader(context[0])}\n${fencedPassage(context[0].text)}\n\nAnswer to check:\n${fencedPassage(reply)}`;
    const body = { messages: [{ role: 'system', content: JUDGE_SYSTEM_PROMPT }, { role: 'user', content: judgeUser }] };
    expect(isJudgeCall(body)).toBe(true);
    expect(scriptedJudgement(body)).toMatch(/^SUPPORTED/);
  });
});
