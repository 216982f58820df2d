/// <reference types="vitest/config" />
import { defineConfig } from 'vite'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'

// The Go binary embeds frontend/dist (//go:embed all:frontend/dist), so the
// committed keep-file must survive vite emptying the folder on every build.
const keepDist = {
  name: 'keep-dist',
  closeBundle() {
    writeFileSync(resolve(__dirname, 'dist/.gitkeep'), '')
  },
}

// https://vite.dev/config/
export default defineConfig({
  plugins: [svelte(), keepDist],
  // Component tests mount Svelte components in happy-dom: resolve Svelte's
  // browser build, not its server build.
  resolve: process.env.VITEST ? { conditions: ['browser'] } : undefined,
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.ts'],
  },
})
