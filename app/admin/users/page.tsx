import type { Metadata } from 'next';
import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { UsersAdmin } from '@/components/auth/users-admin';
import { authOptions, sessionUserOf } from '@/server/auth/auth-options';

export const metadata: Metadata = { title: 'Users' };
export const dynamic = 'force-dynamic';

/** Admins only. The page check is a courtesy; the users router refuses non-admins regardless. */
export default async function UsersPage() {
  const user = sessionUserOf(await getServerSession(authOptions()));
  if (!user) redirect('/signin?callbackUrl=/admin/users');
  if (!user.roles.includes('admin')) {
    return (
      <section className="panel">
        <h1>Users</h1>
        <p role="alert" className="error-message">
          Managing users needs the admin role.
        </p>
      </section>
    );
  }
  return <UsersAdmin currentEmail={user.email} />;
}
