import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { chromiumLaunchOptions } from './tests/support/chromium.ts';

export default defineConfig({
  test: {
    projects: [
      {
        extends: './vite.config.ts',
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/unit/**/*.test.ts', 'tests/server/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // Issue 21: the server's whole suite again on PostgreSQL (Debian's), each test server in a schema of its
        // own; what tests the SQLite file itself, or starts PostgreSQL itself, runs once, in `unit`.
        test: {
          name: 'server-postgres',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          exclude: ['tests/server/sqlite-errors.test.ts', 'tests/server/postgres-schema.test.ts'],
          globalSetup: ['tests/server/postgres-setup.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: './vite.config.ts',
        // Found late on a fresh cache, these would be optimised mid-run and React loaded twice ("Invalid hook call").
        optimizeDeps: {
          include: [
            'react',
            'react-dom/client',
            'react/jsx-dev-runtime',
            '@tanstack/react-router',
            '@tanstack/react-virtual',
            'react-i18next',
            'i18next',
            'rxjs',
            'comlink',
            'idb',
          ],
        },
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/browser/setup.ts'],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: chromiumLaunchOptions() }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/global-setup.ts'],
          setupFiles: ['tests/e2e/csp-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // The whole app (worker, socket, server) answers a poll; on a busy CI machine 1 s is too short.
          expect: { poll: { timeout: 10_000 } },
          // CI shares two cores between the server, several Chromium profiles and Vitest: one retry absorbs a
          // stalled machine. A missing feature still fails, as it fails the retry too; locally there is none.
          retry: process.env.CI ? 1 : 0,
          fileParallelism: false,
        },
      },
      {
        // Issue 21, the cluster shape: nodes behind Debian's haproxy, sharing a database and Debian's redis-server.
        test: {
          name: 'cluster',
          environment: 'node',
          include: ['tests/cluster/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
        },
      },
      {
        // Issue 12, the browser client under faults: FAULTS=short (in `npm test`) or full (`npm run test:faults`).
        test: {
          name: 'faults',
          environment: 'node',
          include: ['tests/faults/**/*.test.ts'],
          globalSetup: ['tests/faults/global-setup.ts'],
          setupFiles: ['tests/e2e/csp-setup.ts'],
          testTimeout: 900_000,
          hookTimeout: 180_000,
          expect: { poll: { timeout: 30_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
