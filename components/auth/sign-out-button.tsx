import { cookies } from 'next/headers';

/**
 * A plain form POST to next-auth's sign-out endpoint, so it works before (or without) hydration;
 * a client-side signOut() click that lands before React attaches its handler does nothing.
 * next-auth's CSRF check is a double submit: the token is the first half of its csrf cookie.
 */
export async function SignOutButton() {
  const jar = await cookies();
  const csrfCookie = jar.get('__Host-next-auth.csrf-token')?.value ?? jar.get('next-auth.csrf-token')?.value ?? '';
  const csrfToken = decodeURIComponent(csrfCookie).split('|')[0] ?? '';
  return (
    <form method="post" action="/api/auth/signout">
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <input type="hidden" name="callbackUrl" value="/signin" />
      <button type="submit">Sign out</button>
    </form>
  );
}
