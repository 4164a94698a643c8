import { describe, expect, it } from 'vitest';
import { ROLES } from '../../auth/roles';
import { decisionRights, holdsRole, RANKED_ROLES } from './approval-authority';

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

describe('decisionRights', () => {
  const run = { user: 'olga' };
  it('lets an approver decide another’s run either way', () => {
    expect(decisionRights(run, 'approver', { user: 'alice', roles: ['approver'] })).toEqual({ approve: true, reject: true, startedByYou: false });
  });

  it('lets the asker reject (withdraw) but not approve their own run, whatever their role', () => {
    expect(decisionRights(run, 'approver', { user: 'olga', roles: ['admin'] })).toEqual({ approve: false, reject: true, startedByYou: true });
  });

  it('gives no decision to someone without the gate’s role', () => {
    expect(decisionRights(run, 'security-lead', { user: 'alice', roles: ['approver'] })).toEqual({ approve: false, reject: false, startedByYou: false });
  });
});
