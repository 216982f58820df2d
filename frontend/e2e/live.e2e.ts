// A long tool run is seen while it runs: the lines a program's shell command
// prints appear under its running tool card, and go once it ends (the
// program's output then holds them). The command waits for a file the test
// writes only after the page showed its first line, so the check does not
// depend on how fast the machine is. It is a brand-new session's first turn:
// under load the program starts before the page loads the session's first
// snapshot, which must therefore carry the running program (the store
// keeps it only when its iteration ends; backend/inflight.go).
import fs from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { scenario, tid, until } from './harness'

scenario('live-tool-output', async (h) => {
  await h.start({
    script: [
      {
        code:
          "r = shell('for i in 1 2 3; do echo \"step $i of the long run\"; done; while [ ! -e gate ]; do sleep 0.1; done; echo finished')\nprint(r['output'])",
      },
      { content: ['The long run finished.'] },
    ],
  })
  await h.send('Run the long thing')
  await h.turnStatus(1, 'running')
  const tail = h.page.locator(tid('tool-live'))
  await until('the live tail to show the third step', async () => (await tail.count()) > 0 && (await tail.first().innerText()).includes('step 3 of the long run'))
  const text = await tail.first().innerText()
  expect(text).toContain('step 1 of the long run')
  expect(await h.page.locator(`${tid('tool-card')}[data-tool="shell"]`).count()).toBe(1)
  await h.record('live-tail')

  fs.writeFileSync(path.join(h.workspace, 'gate'), '')
  await h.turnStatus(1, 'done')
  expect(await tail.count(), 'the live tail goes when the tool ends').toBe(0)
  expect(await h.turns().first().locator(tid('program-output')).first().innerText()).toContain('finished')
  await h.assertHealthy()
})
