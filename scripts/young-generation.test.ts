import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { withYoungGeneration, YOUNG_GENERATION_FLAG } from './young-generation.mjs';

/** An environment of just these variables (ProcessEnv's declared NODE_ENV is not needed here). */
const envOf = (values: Record<string, string | undefined>) => values as NodeJS.ProcessEnv;

describe('withYoungGeneration', () => {
  it('adds the semi-space flag to NODE_OPTIONS, keeping what was there', () => {
    expect(withYoungGeneration(envOf({})).NODE_OPTIONS).toBe(YOUNG_GENERATION_FLAG);
    expect(withYoungGeneration(envOf({ NODE_OPTIONS: '--enable-source-maps' })).NODE_OPTIONS).toBe(`--enable-source-maps ${YOUNG_GENERATION_FLAG}`);
  });

  it("leaves an operator's own semi-space size alone", () => {
    const env = envOf({ NODE_OPTIONS: '--max-semi-space-size=16' });
    expect(withYoungGeneration(env)).toBe(env);
  });

  it('is a flag Node accepts in NODE_OPTIONS (it refuses V8 flags outside its allow-list)', () => {
    const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(process.env.NODE_OPTIONS)'], { env: withYoungGeneration(envOf({ PATH: process.env.PATH })), encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    expect(child.stdout).toBe(YOUNG_GENERATION_FLAG);
  });
});
