/**
 * What /setup says when it cannot show the form: where the one-time link is and how to get a new
 * one. A new user who opened http://localhost:3000/setup by hand was left at a dead end (issue 10).
 */
export function SetupLinkHelp({ reason }: { readonly reason: 'missing' | 'spent' }) {
  return (
    <div role="alert">
      <p>
        {reason === 'missing'
          ? 'Setting up needs the one-time setup link, which contains a token.'
          : 'This setup link has been used, replaced by a newer one, or has expired (links last 24 hours).'}
      </p>
      <p>
        The server prints the link to its log when it starts with no accounts, on a line starting with <code>[auth] no accounts yet</code>: look in the
        terminal where you ran <code>npm start</code>.
      </p>
      <p>
        To get a fresh link, restart the server (stop it, then <code>npm start</code>): each start prints a new link and withdraws the old one. Or start it
        with <code>CONTEXT_RUNTIME_ADMIN_EMAIL</code> and <code>CONTEXT_RUNTIME_ADMIN_PASSWORD</code> (12+ characters) set, and that admin is created for you.
      </p>
    </div>
  );
}
