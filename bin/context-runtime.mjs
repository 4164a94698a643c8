#!/usr/bin/env node
// In a checkout the CLI runs from its TypeScript through tsx, so `npx context-runtime …` needs no
// build step; an installed package ships no sources, only the build (dist/cli.js), which needs no tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = new URL('../server/cli/main.ts', import.meta.url);
let main;
if (existsSync(fileURLToPath(source))) {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
  ({ main } = await import(source.href));
} else {
  ({ main } = await import('../dist/cli.js'));
}
const code = await main(process.argv.slice(2));
// process.exit drops whatever stdout has not flushed to a pipe yet (EXPLAIN --json runs past 64 KB):
// exit from the callback of a last write, which runs once everything before it is written.
process.stdout.write('', () => process.exit(code));
