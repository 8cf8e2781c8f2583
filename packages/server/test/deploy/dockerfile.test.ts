import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { spawnTracked } from '../support/child-processes';

// The Dockerfile's build and start steps, run natively by scripts/verify-dockerfile.mjs (no Docker
// engine here): a broken install, build or start step fails the suite.
const root = path.resolve(import.meta.dirname, '../../../..');
const verifier = path.join(root, 'scripts/verify-dockerfile.mjs');

function runVerifier(args: string[]): Promise<{ code: number | null; output: string }> {
  const adminUrl = inject('testDb').adminUrl;
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (adminUrl) env.DATABASE_URL = adminUrl;
  else delete env.DATABASE_URL;
  return new Promise((resolve) => {
    const child = spawnTracked(process.execPath, [verifier, ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (d) => {
      output += d;
    });
    child.stderr?.on('data', (d) => {
      output += d;
    });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('Dockerfile, verified natively', () => {
  it('installs with the lockfile, builds, starts as the image would and answers its HEALTHCHECK', async () => {
    const { code, output } = await runVerifier([]);
    expect(code, output).toBe(0);
    expect(output).toMatch(/RUN npx -y pnpm@\$\{PNPM_VERSION\} install --frozen-lockfile/);
    expect(output).toContain('runtime: HEALTHCHECK passed');
    expect(output).toContain('node_modules holds only the');
    expect(output).toContain('SIGTERM → clean exit 0');
  }, 240_000);

  it('fails when the install step breaks (a dependency missing from the lockfile)', async () => {
    const context = mkdtempSync(path.join(os.tmpdir(), 'uf-dockerfile-broken-'));
    try {
      for (const f of [
        'Dockerfile',
        '.dockerignore',
        'pnpm-lock.yaml',
        'pnpm-workspace.yaml',
        'tsconfig.base.json',
      ]) {
        cpSync(path.join(root, f), path.join(context, f));
      }
      cpSync(path.join(root, 'scripts/bootstrap.mjs'), path.join(context, 'scripts/bootstrap.mjs'));
      // The dependency patches pnpm applies at install (pnpm-workspace.yaml patchedDependencies).
      cpSync(path.join(root, 'patches'), path.join(context, 'patches'), { recursive: true });
      for (const pkg of readdirSync(path.join(root, 'packages'))) {
        mkdirSync(path.join(context, 'packages', pkg), { recursive: true });
        cpSync(
          path.join(root, 'packages', pkg, 'package.json'),
          path.join(context, 'packages', pkg, 'package.json'),
        );
      }
      const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
      manifest.dependencies = { ...manifest.dependencies, 'left-pad': '1.3.0' };
      writeFileSync(path.join(context, 'package.json'), JSON.stringify(manifest, null, 2));

      const { code, output } = await runVerifier(['--context', context]);
      expect(code).toBe(1);
      expect(output).toMatch(
        /FAILED: build: RUN npx -y pnpm@\$\{PNPM_VERSION\} install --frozen-lockfile.* exited with/,
      );
    } finally {
      rmSync(context, { recursive: true, force: true });
    }
  }, 120_000);
});
