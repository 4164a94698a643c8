/**
 * Reads a `text/event-stream` body (the HTML living standard's server-sent events format) into
 * events: `id:`, `event:` and `data:` fields, a blank line ends an event, `:` starts a comment,
 * several `data:` lines join with a newline. Written here rather than taken from EventSource: Node
 * 20 has no EventSource, and EventSource cannot send the Authorization header an API key needs.
 */

export interface ServerSentEvent {
  readonly id?: string;
  /** `message` when the server named none. */
  readonly event: string;
  readonly data: string;
}

export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffered = '';
  let pending: { id?: string; event?: string; data: string[] } = { data: [] };
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffered.split(/\r\n|\r|\n/);
      // The last piece may be a line cut by the chunk boundary: kept until its end arrives.
      buffered = done ? '' : (lines.pop() ?? '');
      for (const line of lines) {
        if (line === '') {
          if (pending.data.length > 0) yield { ...(pending.id === undefined ? {} : { id: pending.id }), event: pending.event ?? 'message', data: pending.data.join('\n') };
          pending = { data: [] };
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'data') pending.data.push(value);
        else if (field === 'event') pending.event = value;
        else if (field === 'id') pending.id = value;
      }
      if (done) return;
    }
  } finally {
    // An early `break` by the caller ends the request rather than leaving the server streaming.
    await reader.cancel().catch(() => undefined);
  }
}
