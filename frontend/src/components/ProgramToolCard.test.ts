import { afterEach, expect, it } from 'vitest'
import { flushSync, mount, unmount } from 'svelte'
import ProgramToolCard from './ProgramToolCard.svelte'
import type { ToolRun } from '../lib/transcript'

let app: ReturnType<typeof mount> | undefined
afterEach(() => {
  if (app) unmount(app)
  app = undefined
  document.body.innerHTML = ''
})

function render(tool: ToolRun): HTMLElement {
  const target = document.createElement('div')
  document.body.appendChild(target)
  app = mount(ProgramToolCard, { target, props: { tool } })
  flushSync()
  return target
}

const lines = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `line ${from + i}`)

it('shows the newest lines of a running tool and how many came before', () => {
  const el = render({ name: 'run_tests', args: '', duration_ms: 0, error: '', running: true, tail: lines(40, 61), lines: 100 })
  const live = el.querySelector('[data-testid="tool-live"]') as HTMLElement
  expect(live).not.toBeNull()
  const text = live.textContent ?? ''
  expect(text).toContain('… 88 earlier lines')
  expect(text).toContain('line 89')
  expect(text).toContain('line 100')
  expect(text).not.toContain('line 88\n')
})

it('shows no live lines once the tool has ended, nor before it printed any', () => {
  expect(render({ name: 'shell', args: 'cmd=make', duration_ms: 12, error: '', running: false, tail: ['x'], lines: 1 }).querySelector('[data-testid="tool-live"]')).toBeNull()
  unmount(app!)
  app = undefined
  expect(render({ name: 'shell', args: 'cmd=make', duration_ms: 0, error: '', running: true }).querySelector('[data-testid="tool-live"]')).toBeNull()
})
