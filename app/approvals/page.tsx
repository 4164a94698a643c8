import type { Metadata } from 'next';
import { getServerSession } from 'next-auth';
import { ApprovalsPage, type ApprovalsAccess } from '@/components/approvals/approvals-page';
import { authOptions, sessionUserOf } from '@/server/auth/auth-options';
import { ROLES, rankOf } from '@/server/auth/roles';

export const metadata: Metadata = { title: 'Approvals' };

export default async function Approvals({ searchParams }: { readonly searchParams: Promise<{ readonly run?: string | string[] }> }) {
  const user = sessionUserOf(await getServerSession(authOptions()).catch(() => null));
  // The API enforces the roles (approvals.inbox, approvals.mine); this only picks which list to ask for.
  const rank = user ? rankOf(user.roles) : -1;
  const access: ApprovalsAccess = rank >= ROLES.indexOf('approver') ? 'approver' : rank >= ROLES.indexOf('operator') ? 'operator' : 'viewer';
  const { run } = await searchParams;
  const linkedRunId = typeof run === 'string' && run.trim() !== '' ? run.trim() : undefined;
  return <ApprovalsPage access={access} linkedRunId={linkedRunId} />;
}
