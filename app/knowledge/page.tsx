import type { Metadata } from 'next';
import { getServerSession } from 'next-auth';
import { KnowledgePage } from '@/components/knowledge/knowledge-page';
import { authOptions, sessionUserOf } from '@/server/auth/auth-options';
import { ROLES, rankOf } from '@/server/auth/roles';

export const metadata: Metadata = { title: 'Knowledge' };

export default async function Knowledge({ searchParams }: { readonly searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = sessionUserOf(await getServerSession(authOptions()).catch(() => null));
  // The API enforces the role; this only spares a viewer buttons that would answer FORBIDDEN.
  const canOperate = user !== undefined && rankOf(user.roles) >= ROLES.indexOf('operator');
  // ?node=<id> opens a node's lineage (the console links a run's answer here).
  const { node } = await searchParams;
  return <KnowledgePage canOperate={canOperate} initialNode={typeof node === 'string' && node.length <= 200 ? node : null} />;
}
