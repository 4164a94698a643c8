'use client';

import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTRPC } from '@/components/providers/trpc-provider';
import styles from './auth.module.css';

export function SetupForm({ token }: { readonly token: string }) {
  const trpc = useTRPC();
  const complete = useMutation(trpc.users.completeSetup.mutationOptions());
  const [done, setDone] = useState<string | undefined>();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = { token, email: String(form.get('email') ?? ''), name: String(form.get('name') ?? ''), password: String(form.get('password') ?? '') };
    complete.mutate(input, { onSuccess: (user) => setDone(user.email) });
  }

  if (done) {
    return (
      <p role="status">
        Admin {done} created. <a href="/signin">Sign in</a>.
      </p>
    );
  }
  const field = complete.error?.data && 'runtimeError' in complete.error.data ? (complete.error.data.runtimeError as { field?: string } | null)?.field : undefined;
  return (
    <form className={styles.form} onSubmit={submit}>
      <label className="field">
        <span>Email</span>
        <input name="email" type="email" autoComplete="username" required aria-invalid={field === 'email' ? true : undefined} />
      </label>
      <label className="field">
        <span>Name</span>
        <input name="name" type="text" autoComplete="name" />
      </label>
      <label className="field">
        <span>Password (at least 12 characters)</span>
        <input name="password" type="password" autoComplete="new-password" required minLength={12} aria-invalid={field === 'password' ? true : undefined} />
      </label>
      {complete.error ? (
        <p role="alert" className="error-message">
          {complete.error.message}
        </p>
      ) : null}
      <button type="submit" className="primary" disabled={complete.isPending}>
        Create admin
      </button>
    </form>
  );
}
