import { describe, expect, it } from 'vitest';
import { binaryContentReason } from './binary-content';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('binaryContentReason', () => {
  it('accepts UTF-8 text: accents, emoji, tabs, CRLF and ANSI colour codes in logs', () => {
    expect(binaryContentReason(bytes('# Café ☕\r\n\tindented 🚀\n'))).toBeUndefined();
    expect(binaryContentReason(bytes('\u001b[31mERROR\u001b[0m pod OOMKilled\n'.repeat(50)))).toBeUndefined();
    expect(binaryContentReason(new Uint8Array())).toBeUndefined();
  });

  it('refuses NUL bytes, invalid UTF-8, UTF-16 and control-character soup, naming the rule and not the bytes', () => {
    expect(binaryContentReason(Buffer.from([0x41, 0x42, 0x00, 0x43]))).toBe('binary content (NUL byte at offset 2)');
    expect(binaryContentReason(Buffer.from([0x61, 0xc3, 0x28, 0x62]))).toBe('binary content (not valid UTF-8 text)');
    expect(binaryContentReason(Buffer.from('\ufeffhello', 'utf16le'))).toBe('binary content (UTF-16 or UTF-32 (little-endian) text; save it as UTF-8)');
    const soup = Buffer.from(Array.from({ length: 100 }, (_, index) => (index % 4 === 0 ? 0x01 : 0x61)));
    expect(binaryContentReason(soup)).toBe('binary content (25% control characters)');
  });

  it('does not call a sniffed prefix invalid because it cuts a multi-byte character, but a whole file must be complete', () => {
    const cut = bytes('log line é').subarray(0, -1);
    expect(binaryContentReason(cut, true)).toBeUndefined();
    expect(binaryContentReason(cut)).toBe('binary content (not valid UTF-8 text)');
  });
});
