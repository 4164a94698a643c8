import { describe, expect, it } from 'vitest';
import { redactExcerpt } from './sensitive-redaction';

const KEY_BODY = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ';
const FULL = `The deploy key follows.\n-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_BODY}\n-----END OPENSSH PRIVATE KEY-----\nMail ops@example.com for access.`;

describe('redactExcerpt', () => {
  it('redacts a private key body the compressor kept without its BEGIN line', () => {
    const excerpt = `The deploy key follows. ${KEY_BODY}`;
    const redacted = redactExcerpt(FULL, excerpt);
    expect(redacted).not.toContain(KEY_BODY);
    expect(redacted).toContain('The deploy key follows.');
  });

  it('redacts whole spans and what the excerpt holds on its own', () => {
    expect(redactExcerpt(FULL, 'Mail ops@example.com for access; or call +1 415 555 0134.')).toBe('Mail [REDACTED email] for access; or call [REDACTED phone].');
  });

  it('leaves a clean excerpt of a clean passage unchanged', () => {
    expect(redactExcerpt('The pool was exhausted.', 'The pool was exhausted.')).toBe('The pool was exhausted.');
  });
});
