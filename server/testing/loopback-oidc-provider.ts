/**
 * A minimal OpenID Connect provider on 127.0.0.1 for sign-in tests: discovery, JWKS and a token
 * endpoint that trades a code (issued by the test with the claims it wants) for an RS256-signed
 * ID token — what next-auth 4's OAuth flow (openid-client) needs with `idToken: true`. The test
 * plays the browser and the user: it takes the state from the authorization redirect and hands the
 * code straight to the callback, so whatever claims the test sets (an unverified email, another
 * subject) reach the application exactly as a real provider would send them.
 */
import { createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { listenOnLoopback, readBody, writeJson } from './loopback-http';

export interface LoopbackOidcProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** A one-time authorization code whose ID token will carry `claims` (plus iss, aud, iat, exp). */
  issueCode(claims: Record<string, unknown> & { readonly sub: string }): string;
  /** Token requests received, with the PKCE verifier each sent. */
  readonly tokenRequests: readonly { readonly code: string; readonly codeVerifier: string | null }[];
  close(): Promise<void>;
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

export async function startLoopbackOidcProvider(): Promise<LoopbackOidcProvider> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomBytes(6).toString('hex');
  const clientId = 'context-runtime-test';
  const clientSecret = randomBytes(12).toString('hex');
  const codes = new Map<string, Record<string, unknown>>();
  const tokenRequests: { code: string; codeVerifier: string | null }[] = [];
  let issuer = '';

  const sign = (claims: Record<string, unknown>) => {
    const now = Math.floor(Date.now() / 1000);
    const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }));
    const payload = base64url(JSON.stringify({ iss: issuer, aud: clientId, iat: now, exp: now + 300, ...claims }));
    const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(privateKey);
    return `${header}.${payload}.${base64url(signature)}`;
  };

  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://loopback').pathname.replace(/^\/v1/, '');
    if (path === '/.well-known/openid-configuration') {
      return writeJson(response, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (path === '/jwks') return writeJson(response, 200, { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] });
    if (path === '/token' && request.method === 'POST') {
      const form = new URLSearchParams(await readBody(request));
      const code = form.get('code') ?? '';
      tokenRequests.push({ code, codeVerifier: form.get('code_verifier') });
      const claims = codes.get(code);
      codes.delete(code);
      if (!claims) return writeJson(response, 400, { error: 'invalid_grant' });
      return writeJson(response, 200, { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', expires_in: 300, id_token: sign(claims) });
    }
    writeJson(response, 404, { error: 'not_found' });
  });
  const listening = await listenOnLoopback(server);
  issuer = listening.baseURL;

  return {
    issuer,
    clientId,
    clientSecret,
    issueCode(claims) {
      const code = randomBytes(12).toString('hex');
      codes.set(code, claims);
      return code;
    },
    tokenRequests,
    close: () => listening.close(),
  };
}
