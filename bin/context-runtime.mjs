#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npx context-runtime …` needs no build step.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../server/cli/main.ts');
process.exit(await main(process.argv.slice(2)));
