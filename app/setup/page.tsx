import type { Metadata } from 'next';
import Link from 'next/link';
import { SetupForm } from '@/components/auth/setup-form';
import { accounts } from '@/server/auth/auth-services';

export const metadata: Metadata = { title: 'Set up · Context Runtime' };
export const dynamic = 'force-dynamic';

interface SetupPageProps {
  readonly searchParams: Promise<Record<string, string | string[] | undefined>>;
}

/** The one-time link printed to the server log on a first start without CONTEXT_RUNTIME_ADMIN_*. */
export default async function SetupPage({ searchParams }: SetupPageProps) {
  const token = (await searchParams).token;
  const { users } = await accounts();
  const complete = (await users.count()) > 0;
  return (
    <section className="panel" style={{ maxWidth: '26rem', margin: '2rem auto' }} aria-labelledby="setup-title">
      <h1 id="setup-title">Create the first admin</h1>
      {complete ? (
        <p>
          Setup is complete. <Link href="/signin">Sign in</Link>.
        </p>
      ) : typeof token !== 'string' || token.length === 0 ? (
        <p role="alert" className="error-message">
          Open the setup link the server printed to its log (it contains a one-time token).
        </p>
      ) : (
        <SetupForm token={token} />
      )}
    </section>
  );
}
