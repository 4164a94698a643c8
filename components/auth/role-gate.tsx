import { getServerSession } from 'next-auth';
import { connection } from 'next/server';
import type { ReactNode } from 'react';
import { authOptions, sessionUserOf } from '@/server/auth/auth-options';
import { AwaitingRole } from './awaiting-role';

/**
 * Every page's content, or, for a signed-in account with no role, the page that says it waits for
 * one: one place in the root layout, so a page added later cannot forget it. Roles are read from
 * the database (the session callback), so an assigned role shows on the next load.
 */
export async function RoleGate({ children }: { readonly children: ReactNode }) {
  // Per request, and outside the catch below, which would swallow Next's dynamic bail-out.
  await connection();
  const user = sessionUserOf(await getServerSession(authOptions()).catch(() => null));
  if (user && user.roles.length === 0) return <AwaitingRole email={user.email} />;
  return children;
}
