/**
 * `npm run build:package` (and `prepack`): the runtime as a package others install, in dist/.
 * - JavaScript: esbuild bundles each entry (the runtime, the HTTP API client, the CLI) into ESM for
 *   Node 20, every dependency left external (installed beside the package, as package.json lists
 *   them), shared modules split into chunks so one class is one class across entries. No tsx at
 *   run time. Bundled rather than compiled file by file: the sources import without extensions
 *   (moduleResolution bundler), which Node's ESM loader does not resolve.
 * - Types: tsc emits declarations (tsconfig.package.json), then their relative specifiers get the
 *   `.js` extension, for the same reason: a consumer on `moduleResolution: node16/nodenext` reads
 *   extensionless specifiers in an ESM package as unresolvable, and every type turns into `any`.
 * Assets are not copied: drizzle/ and examples/demo-incident ship at the package root and are found
 * from the module (server/config/package-files.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');

/** Entry name (dist/<name>.js) → source. */
export const PACKAGE_ENTRIES = Object.freeze({ index: 'server/index.ts', client: 'server/client/index.ts', cli: 'server/cli/main.ts' });
/** The entries imported by name (package.json `exports`), with declarations at dist/types/<source>.d.ts; the CLI is only run. */
const TYPED_ENTRIES = ['index', 'client'];

async function bundle() {
  await build({
    absWorkingDir: root,
    entryPoints: PACKAGE_ENTRIES,
    outdir: dist,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });
}

function emitDeclarations() {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.package.json')], { cwd: root, stdio: 'inherit' });
}

/** `./x` → `./x.js` or `./x/index.js`, whichever declaration exists beside `file`; bare and already-suffixed specifiers stay. */
export function withExtension(file, specifier) {
  if (!specifier.startsWith('.') || /\.(js|mjs|cjs|json)$/.test(specifier)) return specifier;
  const target = path.resolve(path.dirname(file), specifier);
  if (existsSync(`${target}.d.ts`)) return `${specifier}.js`;
  if (existsSync(path.join(target, 'index.d.ts'))) return `${specifier}/index.js`;
  throw new Error(`${path.relative(root, file)}: no declaration for ${specifier}`);
}

/** Rewrites `from '…'`, `import('…')` and `export … from '…'` specifiers of one declaration file. */
export function rewriteSpecifiers(file, text) {
  return text.replace(/(\bfrom\s+|\bimport\(\s*)(['"])([^'"]+)\2/g, (_match, lead, quote, specifier) => `${lead}${quote}${withExtension(file, specifier)}${quote}`);
}

function declarationFiles(directory) {
  return readdirSync(directory).flatMap((name) => {
    const full = path.join(directory, name);
    if (statSync(full).isDirectory()) return declarationFiles(full);
    return name.endsWith('.d.ts') ? [full] : [];
  });
}

async function main() {
  const started = performance.now();
  rmSync(dist, { recursive: true, force: true });
  await bundle();
  emitDeclarations();
  const declarations = declarationFiles(path.join(dist, 'types'));
  for (const file of declarations) writeFileSync(file, rewriteSpecifiers(file, readFileSync(file, 'utf8')));
  for (const name of TYPED_ENTRIES) {
    const types = path.join(dist, 'types', PACKAGE_ENTRIES[name].replace(/\.ts$/, '.d.ts'));
    if (!existsSync(types)) throw new Error(`no declarations for the ${name} entry (${types})`);
  }
  console.log(`build:package: dist/ (${Object.keys(PACKAGE_ENTRIES).join(', ')} + ${declarations.length} declaration files) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await main();
}
