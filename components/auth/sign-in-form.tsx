'use client';

import { signIn } from 'next-auth/react';
import { useState, type FormEvent } from 'react';
import styles from './auth.module.css';
import { signInErrorMessage } from './safe-callback';

interface SignInFormProps {
  readonly callbackUrl: string;
  /** An error code next-auth put in the URL (e.g. after a refused OIDC sign-in). */
  readonly initialError?: string;
  /** The OIDC provider's display name when one is configured. */
  readonly oidcName?: string;
}

export function SignInForm({ callbackUrl, initialError, oidcName }: SignInFormProps) {
  const [error, setError] = useState<string | undefined>(signInErrorMessage(initialError));
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(undefined);
    const result = await signIn('credentials', { redirect: false, email: String(form.get('email') ?? ''), password: String(form.get('password') ?? ''), callbackUrl });
    if (result?.ok && !result.error) {
      // A full load, so the server-rendered header picks up the new session.
      window.location.assign(callbackUrl);
      return;
    }
    setPending(false);
    setError(signInErrorMessage(result?.error ?? 'CredentialsSignin'));
  }

  return (
    <>
      <form className={styles.form} onSubmit={submit} aria-describedby={error ? 'signin-error' : undefined} noValidate>
        <label className="field">
          <span>Email</span>
          <input name="email" type="email" autoComplete="username" required autoFocus aria-invalid={error ? true : undefined} />
        </label>
        <label className="field">
          <span>Password</span>
          <input name="password" type="password" autoComplete="current-password" required aria-invalid={error ? true : undefined} />
        </label>
        {error ? (
          <p id="signin-error" role="alert" className="error-message">
            {error}
          </p>
        ) : null}
        <button type="submit" className="primary" disabled={pending}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {oidcName ? (
        <>
          <p className={styles.divider}>or</p>
          <button type="button" onClick={() => void signIn('oidc', { callbackUrl })}>
            Sign in with {oidcName}
          </button>
        </>
      ) : null}
    </>
  );
}
