const PROBE_ORIGIN = 'http://callback.invalid';

/** Decoded until it stops changing (a few rounds): "%2509" is a tab after two decodes. */
function fullyDecoded(value: string): string | undefined {
  let current = value;
  for (let round = 0; round < 4; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    if (next === current) return current;
    current = next;
  }
  return undefined;
}

/**
 * Only same-site paths: `?callbackUrl=https://evil.example` must not turn sign-in into an open
 * redirect. Browsers drop tabs and newlines from URLs and read "\" as "/", so "/%09/evil.example"
 * (issue 12, finding 8) became "//evil.example" once decoded: any control character or backslash in
 * any decoding is refused, and what remains must resolve to this site.
 */
export function safeCallbackUrl(value: string | string[] | undefined): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  if (!candidate || candidate.length > 2000) return '/';
  const decoded = fullyDecoded(candidate);
  if (decoded === undefined) return '/';
  for (const form of [candidate, decoded]) {
    if (!form.startsWith('/') || form.startsWith('//') || /[\\\u0000-\u001f\u007f]/.test(form)) return '/';
  }
  const url = new URL(candidate, PROBE_ORIGIN);
  if (url.origin !== PROBE_ORIGIN) return '/';
  if (url.pathname.startsWith('/signin') || url.pathname.startsWith('/setup')) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
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
