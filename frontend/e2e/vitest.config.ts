// Vitest configuration for the end-to-end scenarios (run by scripts/e2e.sh,
// never by the component tests' `npx vitest run`, whose include is src/**).
// One scenario at a time: each starts a real app and a browser, and the
// machine has two cores.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    fileParallelism: false,
    maxConcurrency: 1,
    testTimeout: 180_000,
    hookTimeout: 60_000,
    reporters: ['verbose'],
  },
})
