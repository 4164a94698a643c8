/**
 * Who an OIDC sign-in is, and whether they get in (issue 12, finding 4). Matching accounts by the
 * email claim handed any account — an admin's included — to whoever an identity provider let
 * register that address unverified. So:
 * - the account is found by issuer + subject, which the provider never reassigns;
 * - an email is trusted (to link an existing account or name a new one) only when the provider
 *   says it is verified (`email_verified: true`);
 * - an allow-list of email domains and/or groups (the `groups` claim) narrows who may sign in;
 * - a first sign-in gets no role, so no source access, until an admin assigns one (or the
 *   configured default, at most operator).
 */
import type { Role } from './roles';
import type { OidcIdentity, UserRecord, UserStore } from './user-store';

/** The claims of an ID token or userinfo response that admission reads. */
export interface OidcClaims {
  readonly sub?: string;
  readonly email?: string;
  readonly email_verified?: boolean | string;
  readonly name?: string;
  readonly preferred_username?: string;
  readonly groups?: readonly string[] | string;
}

export interface OidcAdmissionPolicy {
  readonly issuer: string;
  readonly allowedDomains?: readonly string[];
  readonly allowedGroups?: readonly string[];
  readonly defaultRole: 'none' | Extract<Role, 'viewer' | 'operator'>;
}

export type OidcAdmission = { readonly admitted: true; readonly user: UserRecord } | { readonly admitted: false; readonly reason: string };

const refuse = (reason: string): OidcAdmission => Object.freeze({ admitted: false as const, reason });

export async function admitOidcSignIn(users: UserStore, claims: OidcClaims, policy: OidcAdmissionPolicy): Promise<OidcAdmission> {
  if (typeof claims.sub !== 'string' || claims.sub === '') return refuse('the identity provider sent no subject');
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  // Some providers send the claim as a string; anything but true means "not verified".
  if (email === '' || (claims.email_verified !== true && claims.email_verified !== 'true')) return refuse('the identity provider has not verified this email address');
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (policy.allowedDomains && !policy.allowedDomains.includes(domain)) return refuse(`email domain ${domain} is not allowed to sign in`);
  const groups = typeof claims.groups === 'string' ? [claims.groups] : (claims.groups ?? []);
  if (policy.allowedGroups && !groups.some((group) => policy.allowedGroups!.includes(group.toLowerCase()))) return refuse('not a member of a group allowed to sign in');

  const identity: OidcIdentity = { issuer: policy.issuer, subject: claims.sub };
  const linked = await users.findByIdentity(identity);
  if (linked) return linked.disabled ? refuse('the account is disabled') : Object.freeze({ admitted: true as const, user: linked });
  const existing = await users.findByEmail(email);
  if (existing) {
    if (existing.disabled) return refuse('the account is disabled');
    // An account already signed in through another identity keeps it: a second subject claiming the same email is someone else.
    if (existing.oidc) return refuse('this email belongs to an account linked to another sign-in identity');
    return Object.freeze({ admitted: true as const, user: await users.linkIdentity(email, identity) });
  }
  const roles = policy.defaultRole === 'none' ? [] : [policy.defaultRole];
  const name = claims.name ?? claims.preferred_username ?? '';
  try {
    return Object.freeze({ admitted: true as const, user: await users.createForIdentity({ email, name, roles, identity }) });
  } catch (error) {
    // Two first sign-ins at once: the other created it, which is the outcome wanted.
    const raced = await users.findByIdentity(identity);
    if (raced) return Object.freeze({ admitted: true as const, user: raced });
    throw error;
  }
}
