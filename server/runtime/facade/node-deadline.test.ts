import { describe, expect, it } from 'vitest';
import { configSchema } from '../config/config-schema';
import { createNode } from '../ir/graph';
import { nodeDeadline } from './node-deadline';

describe('nodeDeadline', () => {
  const config = configSchema.parse({ scheduler: { node_timeout_ms: 4_000 } });

  it('gives a reason node a deadline that covers each rung of its tier ladder', () => {
    const reason = createNode('reason', { id: 'answer', inputs: [], strategy: 'single_shot', tier: 'cheap', requireCitations: true, localOnly: false, maxOutputTokens: 100 });
    expect(nodeDeadline(config, 3)(reason)).toBe(12_000);
    expect(nodeDeadline(config, 0)(reason)).toBe(4_000);
  });

  it('gives every other kind scheduler.node_timeout_ms', () => {
    expect(nodeDeadline(config, 3)(createNode('merge', { id: 'm', inputs: [] }))).toBe(4_000);
  });
});
