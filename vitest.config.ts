import { defineConfig } from 'vitest/config';

// Three tiers (docs/testing.md): unit beside the code, server integration on a real PostgreSQL,
// end-to-end in headless Chromium against the built server.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.{ts,tsx}'],
          environment: 'node',
          setupFiles: ['packages/server/test/support/fail-on-console-error.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['packages/server/test/**/*.test.ts'],
          globalSetup: ['packages/server/test/global-setup.ts'],
          setupFiles: [
            'packages/server/test/support/fail-on-console-error.ts',
            'packages/server/test/support/no-leftover-processes.ts',
          ],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // 2 cores: two files at once, each with its own database.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll waits for a condition; its default of 1 s is a fixed deadline a busy machine
          // misses (issue 27): give every poll the same room as a Playwright wait.
          expect: { poll: { timeout: 20_000, interval: 100 } },
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
