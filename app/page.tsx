import type { Metadata } from 'next';
import { getServerSession } from 'next-auth';
import { ConsolePage } from '@/components/console/console-page';
import { authOptions, sessionUserOf } from '@/server/auth/auth-options';
import { ROLES, rankOf } from '@/server/auth/roles';

export const metadata: Metadata = { title: 'Console · Context Runtime' };

export default async function Home() {
  const user = sessionUserOf(await getServerSession(authOptions()).catch(() => null));
  // The API enforces the role; this only spares a viewer buttons that would answer FORBIDDEN.
  const canRun = user !== undefined && rankOf(user.roles) >= ROLES.indexOf('operator');
  return <ConsolePage canRun={canRun} />;
}
