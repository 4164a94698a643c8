import { describe, expect, it } from 'vitest';
import { oidcProvider } from './auth-options';

describe('oidcProvider', () => {
  const complete = { CONTEXT_RUNTIME_OIDC_ISSUER: 'https://id.example.com/realms/ops/', CONTEXT_RUNTIME_OIDC_CLIENT_ID: 'context-runtime', CONTEXT_RUNTIME_OIDC_CLIENT_SECRET: 's3cret' };

  it('is configured only when issuer, client id and secret are all set', () => {
    expect(oidcProvider({})).toBeUndefined();
    expect(oidcProvider({ ...complete, CONTEXT_RUNTIME_OIDC_CLIENT_SECRET: '' })).toBeUndefined();
    const provider = oidcProvider(complete)!;
    expect(provider).toMatchObject({ id: 'oidc', type: 'oauth', clientId: 'context-runtime', idToken: true, checks: ['pkce', 'state'] });
    expect(provider.wellKnown).toBe('https://id.example.com/realms/ops/.well-known/openid-configuration');
  });

  it('maps the OIDC profile to the email and name the users table keys on', async () => {
    const provider = oidcProvider(complete)!;
    const user = await provider.profile({ sub: 'abc', email: 'ada@example.com', preferred_username: 'ada' }, {});
    expect(user).toEqual({ id: 'abc', email: 'ada@example.com', name: 'ada' });
  });
});
