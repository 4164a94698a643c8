import { describe, expect, it } from 'vitest';
import { freshNonce, pageContentSecurityPolicy } from './content-security-policy';

const scriptSources = (policy: string) => policy.split('; ').find((directive) => directive.startsWith('script-src ')) ?? '';

describe('page Content-Security-Policy', () => {
  it('runs scripts only with the nonce (and what they load), never inline script or eval in production', () => {
    const scripts = scriptSources(pageContentSecurityPolicy('abc123'));
    expect(scripts).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(scripts).not.toContain('unsafe-inline');
    expect(scripts).not.toContain('unsafe-eval');
  });

  it('allows eval only for `next dev`', () => {
    expect(scriptSources(pageContentSecurityPolicy('n', true))).toContain("'unsafe-eval'");
  });

  it('keeps framing, plugins and <base> forbidden', () => {
    const policy = pageContentSecurityPolicy('n');
    for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "default-src 'self'"]) expect(policy).toContain(directive);
  });

  it('makes a fresh, unguessable nonce for every response', () => {
    const nonces = new Set(Array.from({ length: 200 }, () => freshNonce()));
    expect(nonces.size).toBe(200);
    for (const nonce of nonces) expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
