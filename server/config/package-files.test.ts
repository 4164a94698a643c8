import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultMigrationsFolder } from '../../db/migrate';
import { resolveDemoDirectory } from '../ingest/demo-git-repo';
import { packageFolder } from './package-files';

const MARKER = join('drizzle', 'meta', '_journal.json');
let root: string;

/** A file at `relative` under the temporary root, parents included. */
function plant(relative: string): string {
  const file = join(root, relative);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '{}');
  return file;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'package-files-'));
});

afterEach(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

describe('packageFolder', () => {
  it('finds the folder beside a bundle one level below the package root (dist/index.js)', () => {
    plant(join('node_modules', 'context-runtime', MARKER));
    const bundle = pathToFileURL(plant(join('node_modules', 'context-runtime', 'dist', 'index.js'))).href;
    expect(packageFolder(bundle, 'drizzle', MARKER)).toBe(join(root, 'node_modules', 'context-runtime', 'drizzle'));
  });

  it("takes the package's own copy over a consumer project's drizzle/ further out", () => {
    plant(MARKER);
    plant(join('node_modules', 'context-runtime', MARKER));
    const bundle = pathToFileURL(join(root, 'node_modules', 'context-runtime', 'dist', 'index.js')).href;
    expect(packageFolder(bundle, 'drizzle', MARKER)).toBe(join(root, 'node_modules', 'context-runtime', 'drizzle'));
  });

  it('falls back to the working directory when the module is not a file, and to undefined when that lacks it too', () => {
    vi.spyOn(process, 'cwd').mockReturnValue(root);
    expect(packageFolder('blob:nodedata:1234', 'drizzle', MARKER)).toBeUndefined();
    plant(MARKER);
    expect(packageFolder('blob:nodedata:1234', 'drizzle', MARKER)).toBe(join(root, 'drizzle'));
    expect(packageFolder(undefined, 'drizzle', MARKER)).toBe(join(root, 'drizzle'));
  });
});

describe('the assets of a checkout', () => {
  it('are found from the source modules whatever the working directory', () => {
    vi.spyOn(process, 'cwd').mockReturnValue(root);
    const checkout = join(import.meta.dirname, '..', '..');
    expect(defaultMigrationsFolder()).toBe(join(checkout, 'drizzle'));
    expect(resolveDemoDirectory()).toBe(join(checkout, 'examples', 'demo-incident'));
  });
});
