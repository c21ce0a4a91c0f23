import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Test projects: unit (shared, worker, server contract, lint rules), ui (jsdom components),
// integration (engine against the reference server and Mosquitto on 127.0.0.1),
// e2e (real Chromium). scripts/test.mjs runs them all and prints the summary.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/shared/**/*.test.ts', 'tests/worker/**/*.test.ts', 'tests/server/**/*.test.ts', 'tests/lint/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          // starting a seeded reference server takes seconds when every project runs at once on 2 cores
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'ui',
          include: ['tests/ui/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/ui/setup.ts'],
          environment: 'jsdom',
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // one viewer build for every file
          globalSetup: ['tests/e2e/globalSetup.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
