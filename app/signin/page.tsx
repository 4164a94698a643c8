import type { Metadata } from 'next';
import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import { SignInForm } from '@/components/auth/sign-in-form';
import { safeCallbackUrl } from '@/components/auth/safe-callback';
import { authOptions, oidcProvider, sessionUserOf } from '@/server/auth/auth-options';

export const metadata: Metadata = { title: 'Sign in' };
export const dynamic = 'force-dynamic';

interface SignInPageProps {
  readonly searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function SignInPage({ searchParams }: SignInPageProps) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (sessionUserOf(await getServerSession(authOptions()).catch(() => null))) redirect(callbackUrl);
  const error = typeof params.error === 'string' ? params.error : undefined;
  return (
    <section className="panel" style={{ maxWidth: '26rem', margin: '2rem auto' }} aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in</h1>
      <SignInForm callbackUrl={callbackUrl} initialError={error} oidcName={oidcProvider()?.name} />
    </section>
  );
}
