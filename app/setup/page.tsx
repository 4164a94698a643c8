import type { Metadata } from 'next';
import Link from 'next/link';
import { SetupForm } from '@/components/auth/setup-form';
import { SetupLinkHelp } from '@/components/auth/setup-link-help';
import { accounts } from '@/server/auth/auth-services';

export const metadata: Metadata = { title: 'Set up' };
export const dynamic = 'force-dynamic';

interface SetupPageProps {
  readonly searchParams: Promise<Record<string, string | string[] | undefined>>;
}

type SetupState = 'complete' | 'needs-link' | 'link-spent' | 'form' | { readonly unavailable: string };

async function setupState(token: string | undefined): Promise<SetupState> {
  try {
    const { users, setupTokens } = await accounts();
    if ((await users.count()) > 0) return 'complete';
    if (!token) return 'needs-link';
    return (await setupTokens.hasPending()) ? 'form' : 'link-spent';
  } catch (error) {
    // The runtime could not open its database: say so here rather than as an error page.
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
}

/** The one-time link printed to the server log on a first start without CONTEXT_RUNTIME_ADMIN_*. */
export default async function SetupPage({ searchParams }: SetupPageProps) {
  const raw = (await searchParams).token;
  const token = typeof raw === 'string' && raw.length > 0 ? raw : undefined;
  const state = await setupState(token);
  return (
    <section className="panel" style={{ maxWidth: '34rem', margin: '2rem auto' }} aria-labelledby="setup-title">
      <h1 id="setup-title">Create the first admin</h1>
      {state === 'complete' ? (
        <p>
          Setup is complete. <Link href="/signin">Sign in</Link>.
        </p>
      ) : state === 'form' && token ? (
        <SetupForm token={token} />
      ) : typeof state === 'object' ? (
        <p role="alert" className="error-message">
          The server cannot open its database yet ({state.unavailable}). The server log says why; setup continues once it opens.
        </p>
      ) : (
        <SetupLinkHelp reason={state === 'link-spent' ? 'spent' : 'missing'} />
      )}
    </section>
  );
}
