/**
 * What a signed-in account with no role sees instead of any page (issue 12, finding 4): a first
 * single sign-on gets no access until an admin assigns a role. Without this page every page treated
 * them as signed out (their API calls answer UNAUTHORIZED) and offered a sign-in they had just done.
 */
export function AwaitingRole({ email }: { readonly email: string }) {
  return (
    <section className="panel" aria-labelledby="awaiting-role-title" style={{ maxWidth: '36rem', margin: '2rem auto' }}>
      <h1 id="awaiting-role-title">Your account is waiting for a role</h1>
      <p>
        You are signed in as <strong>{email}</strong>, but an administrator has not assigned your account a role yet, so
        there is nothing here you may see or do.
      </p>
      <p className="muted">Ask an admin to give you a role on the Users page, then reload this page.</p>
    </section>
  );
}
