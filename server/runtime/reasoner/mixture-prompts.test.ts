import { describe, expect, it } from 'vitest';
import type { ContextItem } from '../types';
import { parseContextPrompt } from './context-prompt';
import { judgePrompt, mergePrompt, parseCritique, parseSubQuestions, solverPrompt, withoutMarkers } from './mixture-prompts';

const item = (ref: number, text: string): ContextItem => ({ ref, text, tokens: 10, compressed: false, hit: { chunkId: `c${ref}`, sourceName: 'docs', title: `doc ${ref}`, text, tokens: 10, score: 1, method: 'bm25', sourceKind: 'docs' } as ContextItem['hit'] });

describe('mixture prompts', () => {
  it('reads sub-questions line by line, labels stripped, fragments and repeats dropped, at most the fan-out', () => {
    const reply = 'Sub-questions:\n1. Who published the Journal of Psychotherapy Integration?\n2) Who was the first president of that association?\n- Who was the first president of that association?\nQ4: When was the association founded?';
    expect(parseSubQuestions(reply, 3)).toEqual(['Who published the Journal of Psychotherapy Integration?', 'Who was the first president of that association?', 'When was the association founded?']);
    expect(parseSubQuestions(reply, 1)).toHaveLength(1);
    expect(parseSubQuestions('yes', 3)).toEqual([]);
  });

  it("reads the critic's verdict per finding and ignores lines that are not one", () => {
    const verdicts = parseCritique('Here you go.\n1: GROUNDED\n2 - UNGROUNDED — the date differs\nFinding 3: grounded: stated by its evidence');
    expect([...verdicts]).toEqual([
      [0, { grounded: true, critique: '' }],
      [1, { grounded: false, critique: 'the date differs' }],
      [2, { grounded: true, critique: 'stated by its evidence' }],
    ]);
  });

  it('puts only grounded sub-answers beside the question of the merge, without their markers, and keeps the numbered context', () => {
    const context = [item(1, 'The APA publishes the journal.'), item(2, 'Its first president was G. Stanley Hall.')];
    const messages = mergePrompt('Who was the first president?', context, [
      { slot: 0, question: 'Who publishes the journal?', answer: 'The APA [3].', citations: [], grounded: true },
      { slot: 1, question: 'When was it founded?', answer: 'In 1066 [1].', citations: [], grounded: false },
    ]);
    const parsed = parseContextPrompt(messages[1].content)!;
    expect(parsed.question).toContain('- Who publishes the journal? → The APA.');
    expect(parsed.question).not.toContain('1066');
    expect(parsed.blocks.map((block) => block.ref)).toEqual([1, 2]);
    expect(withoutMarkers('A [1, 2] and B [3].')).toBe('A and B.');
  });

  it('gives each solver its own angle and shows the judge every solver with its markers', () => {
    const context = [item(1, 'The pods ran out of memory.')];
    expect(solverPrompt('Why?', context, 0)[0].content).not.toBe(solverPrompt('Why?', context, 1)[0].content);
    const judge = judgePrompt('Why?', context, [{ slot: 0, question: '', answer: 'Memory [1].', citations: [] }, { slot: 1, question: '', answer: 'Disk [1].', citations: [] }]);
    expect(judge[1].content).toContain('Solver 1:');
    expect(judge[1].content).toContain('Disk [1].');
    expect(parseContextPrompt(judge[1].content)?.blocks).toHaveLength(1);
  });
});
