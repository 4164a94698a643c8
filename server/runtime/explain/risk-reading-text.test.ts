import { describe, expect, it } from 'vitest';
import { ruleIntentAnalyzer } from '../planner/intent-analyzer';
import { riskReadingText } from './risk-reading-text';

const line = (goal: string) => riskReadingText(ruleIntentAnalyzer.analyze(goal));

describe('the EXPLAIN risk line', () => {
  it('names the requested action, how it was asked and what it touches', () => {
    expect(line('Can you delete the orders table in production?')).toBe('Risk: high — the goal asks to act: delete the orders table (request "can you delete"); on table, production');
  });

  it('says a question with risky words asks for no action', () => {
    expect(line('What has to be done after the payment provider key is rotated?')).toBe('Risk: not high — a question ("what …") that asks for no action; payment, rotated read as the topic');
    expect(line('Deploy to production failed for billing-worker')).toBe('Risk: not high — a statement that asks for no action; deploy, production read as the topic');
  });

  it('says a go/no-go question is answered, naming the action it weighs', () => {
    expect(line('Is it safe to restart kafka-2 now?')).toBe('Risk: not high — a go/no-go question, answered from the sources: whether to restart kafka-2 now (nothing is done by answering)');
  });

  it('stays silent when nothing sounds risky', () => {
    expect(line('Explain why deployment checkout-api failed')).toBeUndefined();
  });
});
