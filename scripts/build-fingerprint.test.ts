import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recordFingerprint, sourceFingerprint, staleReason } from './build-fingerprint.mjs';

const root = mkdtempSync(path.join(tmpdir(), 'cr-fingerprint-'));
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, stdio: 'ignore' });

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('npm start rebuilds only when the sources changed', () => {
  it('asks for a build when .next is missing, then not until a source, a new file, a deletion or the lock file changes', () => {
    git('init', '-q');
    writeFileSync(path.join(root, '.gitignore'), '.next/\nnode_modules/\n');
    writeFileSync(path.join(root, 'page.tsx'), 'export default 1;\n');
    writeFileSync(path.join(root, 'package-lock.json'), '{"lockfileVersion": 3}\n');
    git('add', '.');
    const first = sourceFingerprint(root);
    expect(staleReason(first, root)).toMatch(/no build yet/);

    mkdirSync(path.join(root, '.next'));
    writeFileSync(path.join(root, '.next', 'BUILD_ID'), 'x');
    expect(staleReason(first, root)).toMatch(/not made by npm/);
    recordFingerprint(first, root);
    expect(staleReason(sourceFingerprint(root), root)).toBeUndefined();

    // Ignored output (the build itself, node_modules) does not count.
    mkdirSync(path.join(root, 'node_modules'));
    writeFileSync(path.join(root, 'node_modules', 'x.js'), '1');
    expect(staleReason(sourceFingerprint(root), root)).toBeUndefined();

    writeFileSync(path.join(root, 'page.tsx'), 'export default 2;\n');
    expect(staleReason(sourceFingerprint(root), root)).toMatch(/sources changed/);
    recordFingerprint(sourceFingerprint(root), root);

    writeFileSync(path.join(root, 'new-component.tsx'), 'export {};\n');
    expect(staleReason(sourceFingerprint(root), root)).toMatch(/sources changed/);
    recordFingerprint(sourceFingerprint(root), root);

    unlinkSync(path.join(root, 'page.tsx'));
    expect(staleReason(sourceFingerprint(root), root)).toMatch(/sources changed/);
    recordFingerprint(sourceFingerprint(root), root);

    writeFileSync(path.join(root, 'package-lock.json'), '{"lockfileVersion": 3, "packages": {}}\n');
    expect(staleReason(sourceFingerprint(root), root)).toMatch(/sources changed/);
  });

  it('builds every time where git cannot list the sources', () => {
    const plain = mkdtempSync(path.join(tmpdir(), 'cr-fingerprint-nogit-'));
    try {
      mkdirSync(path.join(plain, '.next'));
      writeFileSync(path.join(plain, '.next', 'BUILD_ID'), 'x');
      const fingerprint = sourceFingerprint(plain);
      expect(fingerprint).toBeUndefined();
      expect(staleReason(fingerprint, plain)).toMatch(/git is not available/);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});
