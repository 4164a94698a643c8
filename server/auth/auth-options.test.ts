import { describe, expect, it } from 'vitest';
import { parseServerEnv } from '../config/env';
import { oidcProvider } from './auth-options';

const oidcOf = (variables: Record<string, string>) => parseServerEnv(variables).oidc;

describe('oidcProvider', () => {
  const complete = { CONTEXT_RUNTIME_OIDC_ISSUER: 'https://id.example.com/realms/ops/', CONTEXT_RUNTIME_OIDC_CLIENT_ID: 'context-runtime', CONTEXT_RUNTIME_OIDC_CLIENT_SECRET: 's3cret' };

  it('is configured only when issuer, client id and secret are all set', () => {
    expect(oidcProvider(oidcOf({}))).toBeUndefined();
    // Half a configuration is refused at start, naming what is missing, rather than silently off.
    expect(() => oidcOf({ ...complete, CONTEXT_RUNTIME_OIDC_CLIENT_SECRET: '' })).toThrow(/CONTEXT_RUNTIME_OIDC_CLIENT_SECRET must be set too/);
    const provider = oidcProvider(oidcOf(complete))!;
    expect(provider).toMatchObject({ id: 'oidc', type: 'oauth', clientId: 'context-runtime', idToken: true, checks: ['pkce', 'state'] });
    expect(provider.wellKnown).toBe('https://id.example.com/realms/ops/.well-known/openid-configuration');
  });

  it('maps the OIDC profile to the email and name the users table keys on', async () => {
    const provider = oidcProvider(oidcOf(complete))!;
    const user = await provider.profile({ sub: 'abc', email: 'ada@example.com', preferred_username: 'ada' }, {});
    expect(user).toEqual({ id: 'abc', email: 'ada@example.com', name: 'ada' });
  });
});
