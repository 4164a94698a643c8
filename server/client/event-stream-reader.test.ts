import { describe, expect, it } from 'vitest';
import { readEventStream, type ServerSentEvent } from './event-stream-reader';

/** A body delivered in the given pieces, as a network would cut it. */
function bodyOf(pieces: readonly string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function readAll(pieces: readonly string[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readEventStream(bodyOf(pieces))) events.push(event);
  return events;
}

describe('readEventStream', () => {
  it('reads id, event and data, whatever the chunk boundaries (inside a field, a line end or a multi-byte character)', async () => {
    const whole = 'id: 1\nevent: progress\ndata: {"type":"progress","note":"café"}\n\nid: 2\nevent: result\ndata: {"type":"result"}\n\n';
    const expected = [
      { id: '1', event: 'progress', data: '{"type":"progress","note":"café"}' },
      { id: '2', event: 'result', data: '{"type":"result"}' },
    ];
    expect(await readAll([whole])).toEqual(expected);
    const bytes = new TextEncoder().encode(whole);
    // Every split point, in bytes: 'é' is two bytes, so one split falls inside it.
    for (let cut = 1; cut < bytes.length; cut++) {
      const decoder = new TextDecoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, cut));
          controller.enqueue(bytes.slice(cut));
          controller.close();
        },
      });
      const events: ServerSentEvent[] = [];
      for await (const event of readEventStream(body)) events.push(event);
      expect(events, `cut at byte ${cut} (${decoder.decode(bytes.slice(0, cut)).slice(-8)})`).toEqual(expected);
    }
  });

  it('joins data lines, skips comments, accepts CRLF and a field without a space, and names an unnamed event `message`', async () => {
    expect(await readAll([': keep-alive\r\n', 'data:first\r\ndata: second\r\n\r\n', 'event: ping\n\n'])).toEqual([{ event: 'message', data: 'first\nsecond' }]);
  });

  it('drops an event the stream ended in the middle of', async () => {
    expect(await readAll(['data: {"type":"result"}\n\ndata: {"type":"prog'])).toEqual([{ event: 'message', data: '{"type":"result"}' }]);
  });
});
