#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx context-runtime …` needs no build step.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../server/cli/main.ts');
const code = await main(process.argv.slice(2));
// process.exit drops whatever stdout has not flushed to a pipe yet (EXPLAIN --json runs past 64 KB):
// exit from the callback of a last write, which runs once everything before it is written.
process.stdout.write('', () => process.exit(code));
