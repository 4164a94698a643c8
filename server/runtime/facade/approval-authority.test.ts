import { describe, expect, it } from 'vitest';
import { ROLES } from '../../auth/roles';
import { holdsRole, RANKED_ROLES } from './approval-authority';

describe('holdsRole', () => {
  it('ranks roles exactly as sign-in does (server/auth/roles.ts)', () => {
    expect([...RANKED_ROLES]).toEqual([...ROLES]);
  });

  it('accepts the named role or a higher ranked one, and a custom role only when held', () => {
    expect(holdsRole({ user: 'a', roles: ['approver'] }, 'approver')).toBe(true);
    expect(holdsRole({ user: 'a', roles: ['admin'] }, 'approver')).toBe(true);
    expect(holdsRole({ user: 'a', roles: ['operator'] }, 'approver')).toBe(false);
    expect(holdsRole({ user: 'a', roles: [] }, 'viewer')).toBe(false);
    expect(holdsRole({ user: 'a', roles: ['admin'] }, 'security-lead')).toBe(false);
    expect(holdsRole({ user: 'a', roles: ['operator', 'security-lead'] }, 'security-lead')).toBe(true);
  });
});
