/** Only same-site paths: `?callbackUrl=https://evil.example` must not turn sign-in into an open redirect. */
export function safeCallbackUrl(value: string | string[] | undefined): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  if (!candidate || !candidate.startsWith('/') || candidate.startsWith('//') || candidate.startsWith('/\\')) return '/';
  if (candidate.startsWith('/signin') || candidate.startsWith('/setup')) return '/';
  return candidate;
}

/** next-auth's error codes, restated for people. */
export function signInErrorMessage(code: string | undefined): string | undefined {
  if (!code) return undefined;
  if (code === 'CredentialsSignin') return 'Wrong email or password, or the account is disabled.';
  if (code === 'AccessDenied') return 'That account may not sign in here (the identity provider has not verified its email, its domain or group is not allowed, or it is disabled).';
  // The sign-in throttle's own sentence (server/auth/sign-in-throttle.ts) says when to retry.
  if (code.startsWith('Too many sign-in attempts')) return code;
  if (code === 'SessionRequired') return 'Please sign in to continue.';
  return `Sign-in failed (${code}). Try again, or ask an admin.`;
}
