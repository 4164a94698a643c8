/**
 * Lint for the whole repository: `npm run lint` (= `eslint . --max-warnings 0`, run by .ci/run).
 * - eslint-config-next core-web-vitals: React, React hooks (incl. the React Compiler rules), a
 *   subset of jsx-a11y, Next's own rules; its typescript config adds typescript-eslint recommended.
 *   Not type-aware: see the note on `parserOptions` below.
 * - `layers/imports`: the layer rules of architecture.md §3 and §5.10, resolved by path (see
 *   scripts/lint/layer-imports-rule.mjs); scripts/lint/eslint-layers.test.ts plants one violation
 *   of each rule and shows it is reported.
 */
import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';
import { fileURLToPath } from 'node:url';
import { layersPlugin } from './scripts/lint/layer-imports-rule.mjs';

/**
 * Modules a browser bundle may import at run time although they live under server/: pure leaves
 * with no run-time imports of their own (the `isomorphic` layer below enforces that), so importing
 * one can never drag the cost estimator, a driver or node: built-ins into the client.
 */
const ISOMORPHIC = [
  'server/runtime/costmodel/units',
  'server/runtime/costmodel/calibration-fields',
  'server/runtime/explain/contradiction-text',
  'server/runtime/explain/analyze-calibration',
  'server/runtime/explain/budget-text',
  'server/auth/roles',
];

/**
 * Where UI code (components/, app/) may take server *types* from (`import type`, erased at build):
 * the runtime's published data shapes, not its internals — so an internal refactor of the planner
 * or the estimator cannot break a page, and a page cannot come to depend on an adapter's row shape.
 * - server/runtime (index.ts): the public surface, which re-exports the published types;
 * - contracts/**: one plugin contract per file (§5.2), including the knowledge page's read models;
 * - runtime/types.ts and any `*-types.ts` module: plain type modules (explain-types, calibration-types);
 * - ir/graph.ts: the Execution Graph IR, which EXPLAIN serialises and the plan explorer draws;
 * - api/root-router.ts: `AppRouter`, which the tRPC client infers every procedure's types from.
 */
const UI_TYPE_MODULES = [
  'server/runtime',
  'server/runtime/contracts/**',
  'server/runtime/types',
  'server/runtime/**/*-types',
  'server/runtime/ir/graph',
  'server/api/root-router',
  ...ISOMORPHIC,
];

/** Files under components/ that are React Server Components (no 'use client', rendered by app/). */
const SERVER_COMPONENTS = ['components/auth/user-menu.tsx', 'components/auth/role-gate.tsx'];

const TESTS = ['**/*.test.ts', '**/*.test.tsx'];

const ADAPTERS_AND_DB = {
  paths: ['server/adapters/**', 'db/**'],
  message: 'UI code never sees adapters or the database, not even their types; move the shared shape into server/runtime/contracts',
};

const layerPolicy = {
  // Paths are judged relative to this file, whichever directory eslint is started from.
  root: fileURLToPath(new URL('.', import.meta.url)),
  layers: [
    {
      name: 'server/runtime',
      files: ['server/runtime/**'],
      // Runtime tests exercise it with real parts (§7: SIF embeddings, PGlite fixtures), so they may.
      ignores: TESTS,
      forbid: [
        {
          // Frameworks, drivers and the AI SDK (which only adapters/models wraps); types included,
          // since a driver's type in a runtime signature is the same coupling.
          packages: ['next', 'next/**', 'react', 'react/**', 'react-dom', 'react-dom/**', '@trpc/**', 'drizzle-orm', 'drizzle-orm/**', 'postgres', '@electric-sql/**', 'next-auth', 'next-auth/**', 'ai', '@ai-sdk/**', '@tanstack/**', '@xyflow/**'],
          message: 'server/runtime imports no framework, driver or SDK (architecture.md §3); put it behind a contract in server/runtime/contracts and implement it in server/adapters',
        },
        {
          paths: ['server/adapters/**', 'server/api/**', 'server/auth/**', 'server/services/**', 'server/cli/**', 'server/ingest/**', 'server/testing/**', 'server/runtime-integration/**', 'server/integrations/**', 'server/bootstrap', 'server/index', 'db/**', 'app/**', 'components/**'],
          message: 'server/runtime depends on nothing outside itself; adapters, the API and the app depend on it',
        },
      ],
    },
    {
      name: 'components',
      files: ['components/**'],
      forbid: [ADAPTERS_AND_DB],
    },
    {
      name: 'components',
      files: ['components/**'],
      ignores: [...TESTS, ...SERVER_COMPONENTS],
      forbid: [
        {
          paths: ['server/**'],
          except: ISOMORPHIC,
          typesFrom: UI_TYPE_MODULES,
          message: 'components take server types only with `import type` from runtime contracts and type modules (UI_TYPE_MODULES in eslint.config.mjs) and call the server through tRPC',
        },
      ],
    },
    {
      name: 'server component',
      files: SERVER_COMPONENTS,
      forbid: [
        { paths: ['server/runtime/**'], except: ISOMORPHIC, typesFrom: UI_TYPE_MODULES, message: 'a server component reaches the runtime through tRPC or server/services, not its internals' },
      ],
    },
    {
      name: 'app',
      files: ['app/**'],
      forbid: [
        ADAPTERS_AND_DB,
        {
          // Route handlers and server pages wire things up through server/api, server/auth and
          // server/services (the composition roots); they do not reach into the runtime's internals.
          paths: ['server/runtime/**'],
          except: ISOMORPHIC,
          typesFrom: UI_TYPE_MODULES,
          message: 'app/ reaches the runtime through tRPC or server/services; types only from runtime contracts and type modules',
        },
      ],
    },
    {
      name: 'tRPC router',
      files: ['server/api/routers/**'],
      // Router tests build a real runtime with real adapters (createCaller over PGlite, §5.8).
      ignores: TESTS,
      forbid: [
        { paths: ['server/adapters/**', 'db/**'], message: 'routers reach the runtime only through RuntimePort (server/api/runtime-port.ts) and the contracts it names, never an adapter or the database' },
        {
          paths: ['server/runtime/**'],
          // Typed errors are thrown deep and mapped once (§5.5); routers throw the same ones.
          except: ['server/runtime/errors'],
          typesFrom: true,
          message: 'routers call the runtime only through RuntimePort (server/api/runtime-port.ts); from the runtime they import types and server/runtime/errors only',
        },
      ],
    },
    {
      name: 'isomorphic module',
      files: ISOMORPHIC.map((module) => `${module}.ts`),
      forbid: [
        // …except another module of the list, which is held to the same rule.
        { paths: ['**'], packages: ['**'], except: ISOMORPHIC, typesFrom: true, message: 'a module the browser may import (ISOMORPHIC in eslint.config.mjs) imports nothing at run time but another of them' },
      ],
    },
  ],
  client: {
    // Everything under components/ ends up in a client bundle unless it is a listed server
    // component; elsewhere (app/) a file is client code when it says 'use client'.
    files: ['components/**'],
    notClient: [...TESTS, ...SERVER_COMPONENTS],
    isomorphic: ISOMORPHIC,
    message: 'client code imports no server module at run time (architecture.md §5.10): use `import type`, move a pure helper into an ISOMORPHIC module, or fetch it through tRPC',
  },
};

const config = [
  { ignores: ['.next/**', 'node_modules/**', 'dist/**', 'bench/results/**', '.data/**', 'test-results/**', 'playwright-report/**', 'drizzle/**', 'next-env.d.ts', 'tsconfig.tsbuildinfo'] },
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    name: 'project',
    // Not type-aware (no parserOptions.projectService): measured on the shared 2-core machine,
    // `npm run lint` takes 25 s CPU (about 1.5 min wall under load); with typescript-eslint's
    // recommendedTypeCheckedOnly added it took 65 s CPU (4.6 min wall) and raised 234 findings,
    // 97 of them require-await. Worth a separate pass; not in every CI run for now.
    plugins: { layers: layersPlugin },
    rules: {
      // A leading underscore marks a deliberately unused binding, e.g. a field left out by destructuring.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true }],
      'layers/imports': ['error', layerPolicy],
    },
  },
];

export default config;
