import { describe, expect, it } from 'vitest';
import { withIntermediateAnswer, withoutIntermediateAnswer } from './intermediate-answer';

describe("self-ask's intermediate answer beside the question", () => {
  it('is appended for the model and left out where the question is shown to the user', () => {
    const asked = withIntermediateAnswer('Who wrote the change that moved the sinks?', ['fd84e05', 'Mei Chen']);
    expect(asked).toBe('Who wrote the change that moved the sinks? (intermediate answer: fd84e05, Mei Chen)');
    expect(withoutIntermediateAnswer(asked)).toBe('Who wrote the change that moved the sinks?');
    expect(withIntermediateAnswer('Who wrote it?', [])).toBe('Who wrote it?');
    // A question of the user's own that ends in parentheses stays as written.
    expect(withoutIntermediateAnswer('Which broker (kafka-2 or kafka-3) led it?')).toBe('Which broker (kafka-2 or kafka-3) led it?');
  });

});
