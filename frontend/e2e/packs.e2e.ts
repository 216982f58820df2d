// Issue 13, item 3: the footer's pack badges follow the workspace at once.
// A program writes go.mod mid-turn (the turn keeps its frozen packs, and
// run_tests says the Go pack switches on at the next turn); then files
// written and removed between turns, with no turn running, change the
// badges too: the engine's watcher publishes a packs event and the page
// asks for its status.
import fs from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { scenario, until } from './harness'

scenario('packs-badge', async (h) => {
  await h.start({
    files: { 'README.md': '# Empty\n' },
    script: [
      { code: "write('go.mod', 'module example.com/x\\n\\ngo 1.21\\n')\nprint('wrote go.mod')" },
      { code: 'run_tests()' },
      { content: ['The Go pack switches on at the next turn.'] },
    ],
  })
  const packs = h.el('footer-packs')
  await until('the footer to say no packs', async () => (await packs.innerText()).includes('no packs'))

  await h.send('Make this a Go module and run its tests')
  await h.turnStatus(1, 'done', 60_000)
  const refusal = (await h.turns().first().locator('[data-testid="error-card"]').allInnerTexts()).join('\n')
  expect(refusal).toContain('run_tests: the Go pack switches on at the next turn: go.mod appeared after this turn started')
  await until('the badge to show go after the turn wrote go.mod', async () => (await packs.innerText()).trim() === 'go')

  // Between turns: nothing runs, only the watcher can tell the page.
  fs.writeFileSync(path.join(h.workspace, 'package.json'), '{"name": "x"}\n')
  fs.writeFileSync(path.join(h.workspace, 'index.js'), 'console.log(1)\n')
  await until('the badge to add js with no turn running', async () => (await packs.innerText()).trim() === 'go · js')
  fs.rmSync(path.join(h.workspace, 'go.mod'))
  await until('the badge to drop go when go.mod goes', async () => (await packs.innerText()).trim() === 'js')
})
