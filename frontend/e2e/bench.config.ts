// Vitest configuration for the page benchmarks (scripts/bench-ui.sh).
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: new URL('..', import.meta.url).pathname,
    include: ['e2e/**/*.uibench.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 900_000,
    hookTimeout: 60_000,
    reporters: ['verbose'],
  },
})
