/**
 * Is this text? Ingest reads files as UTF-8 by extension, so a binary named `.md` (an image
 * renamed, a compiled file, a UTF-16 export) used to become chunks of replacement characters
 * that retrieval then ranked and cited. A file is refused when its bytes cannot be text:
 *   - a UTF-16/UTF-32 byte-order mark (text, but not in the encoding the parsers read);
 *   - a NUL byte (no UTF-8 text holds one; every common binary format does, early);
 *   - bytes that are not valid UTF-8;
 *   - more than CONTROL_RATIO of C0 control characters other than tab, newlines, form feed and
 *     ESC (ANSI colours in logs are ESC sequences and stay accepted).
 * The reason names the rule, never the bytes: a warning must not echo file content.
 */

/** Share of control bytes above which a NUL-free, valid-UTF-8 buffer is still not text. */
export const CONTROL_RATIO = 0.1;

const ALLOWED_CONTROLS = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]);

function byteOrderMark(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'UTF-16 or UTF-32 (little-endian)';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'UTF-16 (big-endian)';
  if (bytes[0] === 0x00 && bytes[1] === 0x00 && bytes[2] === 0xfe && bytes[3] === 0xff) return 'UTF-32 (big-endian)';
  return undefined;
}

/**
 * Why `bytes` is not UTF-8 text, or undefined when it is. `truncated`: the buffer is the first part
 * of a longer file, so a multi-byte character cut at its end is not an error.
 */
export function binaryContentReason(bytes: Uint8Array, truncated = false): string | undefined {
  const encoding = byteOrderMark(bytes);
  if (encoding) return `binary content (${encoding} text; save it as UTF-8)`;
  let controls = 0;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index];
    if (byte === 0) return `binary content (NUL byte at offset ${index})`;
    if ((byte < 0x20 || byte === 0x7f) && !ALLOWED_CONTROLS.has(byte)) controls++;
  }
  try {
    // `stream`: a multi-byte character cut at the end of a sniffed prefix waits for bytes that never come, not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated });
  } catch {
    return 'binary content (not valid UTF-8 text)';
  }
  if (bytes.length > 0 && controls / bytes.length > CONTROL_RATIO) return `binary content (${Math.round((controls / bytes.length) * 100)}% control characters)`;
  return undefined;
}
