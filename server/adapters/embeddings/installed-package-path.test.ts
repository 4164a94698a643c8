import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installedPackageEntry } from './installed-package-path';
import { WINK_PACKAGE, winkJsonPath } from './word-vectors';

const root = mkdtempSync(path.join(tmpdir(), 'cr-package-path-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('installed package lookup (no require.resolve, which the production bundle rewrites)', () => {
  it('finds the word-vector JSON from this folder, as the server does', () => {
    const found = winkJsonPath();
    expect(typeof found).toBe('string');
    expect(found).toBe(path.resolve('node_modules', WINK_PACKAGE, `${WINK_PACKAGE}.json`));
  });

  it("walks up from a nested folder to the nearest node_modules and follows the package's main", () => {
    const packageDirectory = path.join(root, 'project', 'node_modules', 'some-vectors');
    mkdirSync(path.join(packageDirectory, 'data'), { recursive: true });
    writeFileSync(path.join(packageDirectory, 'package.json'), JSON.stringify({ name: 'some-vectors', main: './data/vectors.json' }));
    writeFileSync(path.join(packageDirectory, 'data', 'vectors.json'), '{}');
    const nested = path.join(root, 'project', '.next', 'server', 'chunks');
    mkdirSync(nested, { recursive: true });
    expect(installedPackageEntry('some-vectors', [nested])).toBe(path.join(packageDirectory, 'data', 'vectors.json'));
  });

  it('is undefined when the package is missing or its main file is gone', () => {
    expect(installedPackageEntry('no-such-package-here', [root])).toBeUndefined();
    const broken = path.join(root, 'broken', 'node_modules', 'half-installed');
    mkdirSync(broken, { recursive: true });
    writeFileSync(path.join(broken, 'package.json'), JSON.stringify({ main: 'missing.json' }));
    expect(installedPackageEntry('half-installed', [path.join(root, 'broken')])).toBeUndefined();
  });
});
