import type { Metadata } from 'next';
import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { ApiKeysAdmin } from '@/components/auth/api-keys-admin';
import { authOptions, sessionUserOf } from '@/server/auth/auth-options';

export const metadata: Metadata = { title: 'API keys' };
export const dynamic = 'force-dynamic';

/** Admins only. The page check is a courtesy; the apiKeys router refuses non-admins regardless. */
export default async function ApiKeysPage() {
  const user = sessionUserOf(await getServerSession(authOptions()));
  if (!user) redirect('/signin?callbackUrl=/admin/api-keys');
  if (!user.roles.includes('admin')) {
    return (
      <section className="panel">
        <h1>API keys</h1>
        <p role="alert" className="error-message">
          Managing API keys needs the admin role.
        </p>
      </section>
    );
  }
  return <ApiKeysAdmin />;
}
