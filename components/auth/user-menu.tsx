import Link from 'next/link';
import { getServerSession } from 'next-auth';
import { connection } from 'next/server';
import { authOptions, sessionUserOf } from '@/server/auth/auth-options';
import { highestRole } from '@/server/auth/roles';
import styles from './auth.module.css';
import { SignOutButton } from './sign-out-button';

/** The header's right side: who is signed in and with which role, or a sign-in link. */
export async function UserMenu() {
  // Per request, never prerendered: and outside the catch below, which would swallow Next's dynamic bail-out.
  await connection();
  const user = sessionUserOf(await getServerSession(authOptions()).catch(() => null));
  if (!user) {
    return (
      <div className={styles.userMenu}>
        <Link href="/signin">Sign in</Link>
      </div>
    );
  }
  const role = highestRole(user.roles);
  return (
    <div className={styles.userMenu} role="group" aria-label="Signed-in user">
      {role === 'admin' ? <Link href="/admin/users">Users</Link> : null}
      {role === 'admin' ? <Link href="/admin/api-keys">API keys</Link> : null}
      <span data-testid="current-user">
        {user.name || user.email} <span className="badge" data-testid="current-role">{role ?? 'no role yet'}</span>
      </span>
      <SignOutButton />
    </div>
  );
}
