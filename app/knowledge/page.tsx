import type { Metadata } from 'next';
import { getServerSession } from 'next-auth';
import { KnowledgePage } from '@/components/knowledge/knowledge-page';
import { authOptions, sessionUserOf } from '@/server/auth/auth-options';
import { ROLES, rankOf } from '@/server/auth/roles';

export const metadata: Metadata = { title: 'Knowledge · Context Runtime' };

export default async function Knowledge() {
  const user = sessionUserOf(await getServerSession(authOptions()).catch(() => null));
  // The API enforces the role; this only spares a viewer buttons that would answer FORBIDDEN.
  const canOperate = user !== undefined && rankOf(user.roles) >= ROLES.indexOf('operator');
  return <KnowledgePage canOperate={canOperate} />;
}
