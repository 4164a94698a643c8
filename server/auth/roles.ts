/**
 * Roles are ranked: each one can do everything the roles below it can (an approver may also run
 * goals). viewer reads; operator runs goals; approver decides gates; admin manages users and config.
 */
export const ROLES = ['viewer', 'operator', 'approver', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

/** The rank of the highest role held; -1 for none. */
export function rankOf(roles: readonly string[]): number {
  return Math.max(-1, ...roles.map((role) => ROLES.indexOf(role as Role)));
}

/** The highest role held, for display ("signed in as ada · operator"). */
export function highestRole(roles: readonly string[]): Role | undefined {
  const rank = rankOf(roles);
  return rank < 0 ? undefined : ROLES[rank];
}
