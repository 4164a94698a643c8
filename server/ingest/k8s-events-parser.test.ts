import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ContextRuntimeError } from '../runtime/errors';
import { parseK8sEvents } from './k8s-events-parser';
import { countWords } from './word-token-counter';

const demoEvents = readFileSync(new URL('../../examples/demo-incident/events/checkout-api-events.json', import.meta.url), 'utf8');
const parse = (content: string, uri = 'events/bad.json') => parseK8sEvents({ uri, content }, { countTokens: countWords });

function caught(action: () => unknown): ContextRuntimeError {
  try {
    action();
  } catch (error) {
    if (error instanceof ContextRuntimeError) return error;
    throw error;
  }
  throw new Error('expected a ContextRuntimeError');
}

describe('parseK8sEvents', () => {
  it('renders one chunk per demo event, the OOMKilled one included', () => {
    const chunks = parse(demoEvents, 'events/checkout-api-events.json');
    expect(chunks).toHaveLength(JSON.parse(demoEvents).length);
    const oom = chunks.find((chunk) => chunk.text.startsWith('Warning OOMKilled pod/checkout-api-7d9f8b6c5-x2k4p'));
    expect(oom?.text).toBe(
      'Warning OOMKilled pod/checkout-api-7d9f8b6c5-x2k4p (shop): Container checkout-api was OOMKilled: memory usage reached the limit of 256Mi (exit code 137) count=6 from 2025-06-03T09:31:09Z to 2025-06-03T09:38:20Z source=kubelet',
    );
    expect(oom?.locator).toBe(`event ${oom!.ordinal + 1}`);
    expect(oom?.title).toBe(`event ${oom!.ordinal + 1}: Warning OOMKilled pod/checkout-api-7d9f8b6c5-x2k4p`);
    expect(oom?.metadata).toMatchObject({ reason: 'OOMKilled', kind: 'Pod', namespace: 'shop', count: 6 });
  });

  it('accepts a kubectl List and events.k8s.io fields', () => {
    const list = { kind: 'List', items: [{ regarding: { kind: 'Node', name: 'n1' }, reason: 'NodeNotReady', note: 'Node n1 status is now: NodeNotReady', type: 'Warning', eventTime: '2025-06-03T09:00:00.000000Z' }] };
    expect(parse(JSON.stringify(list)).map((chunk) => chunk.text)).toEqual(['Warning NodeNotReady node/n1: Node n1 status is now: NodeNotReady count=1 at 2025-06-03T09:00:00.000000Z']);
  });

  it('rejects malformed JSON with INVALID_INPUT naming the file', () => {
    const error = caught(() => parse('[{"reason": "BackOff",', 'events/broken.json'));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.field).toBe('events/broken.json');
    expect(error.message).toMatch(/^events\/broken\.json: malformed JSON/);
  });

  it('says where malformed JSON or a bad value is without quoting the file (errors never echo content)', () => {
    expect(caught(() => parse('[{"reason": "SECRET-TOKEN",\n  "message" "m"}]', 'e.json')).message).toBe('e.json: malformed JSON in Kubernetes events file at line 2, column 13');
    expect(caught(() => parse('SECRET-TOKEN', 'e.json')).message).toBe('e.json: malformed JSON in Kubernetes events file');
    expect(caught(() => parse('[{"reason": "SECRET",', 'e.json')).message).toBe('e.json: malformed JSON in Kubernetes events file: it ends before the JSON is complete');
    const badCount = caught(() => parse('[{"reason":"X","message":"m","involvedObject":{"kind":"Pod","name":"p"},"count":"SECRET-TOKEN"}]'));
    expect(badCount.message).toMatch(/count: expected a non-negative number, found a string$/);
    const badName = caught(() => parse('[{"reason":"X","message":"m","involvedObject":{"kind":"Pod","name":42}}]'));
    expect(badName.message).toMatch(/name: expected a non-empty string, found a number$/);
  });

  it('rejects a non-array document', () => {
    const error = caught(() => parse('{"reason": "BackOff"}'));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('expected a JSON array of Kubernetes events');
    expect(error.message).toContain('found object');
  });

  it('names the event and field path of a bad item', () => {
    const items = [{ reason: 'Started', message: 'ok', involvedObject: { kind: 'Pod', name: 'a' } }, { reason: 'BackOff', message: 'x', involvedObject: { kind: 'Pod' } }];
    const error = caught(() => parse(JSON.stringify(items)));
    expect(error.field).toBe('events/bad.json[1].involvedObject.name');
    expect(caught(() => parse('[42]')).field).toBe('events/bad.json[0]');
    expect(caught(() => parse('[{"reason":"X","message":"m","involvedObject":{"kind":"Pod","name":"p"},"count":"3"}]')).field).toBe('events/bad.json[0].count');
  });
});
