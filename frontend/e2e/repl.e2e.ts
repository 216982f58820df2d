// Issue 5: the scripted end-to-end REPL run. In a workspace with a .py file
// the model's program starts a real Python REPL and evaluates
// sum(i*i for i in range(101)) in it; the transcript shows 338350, the footer
// counts one REPL and its badge opens the REPL sidebar, where the row is up,
// its log opens, and Stop ends it.
import { expect } from 'vitest'
import { scenario, until } from './harness'

scenario('repl', async (h) => {
  await h.start({
    files: {
      'README.md': '# Squares\n\nSums of squares.\n',
      'squares.py': 'def squares(n):\n    return sum(i * i for i in range(n + 1))\n',
    },
    script: [
      {
        code:
          "r = repl_start('python')\nprint(r['result'], r['id'])\n" +
          "v = repl_eval('python', {'code': 'sum(i*i for i in range(101))'})\nprint('value', v['value'])",
      },
      { content: ['The sum of the squares up to 100 is **338350**.'] },
    ],
  })
  await until('the footer to list the python pack', async () => (await h.el('footer-packs').innerText()).toLowerCase().includes('python'))
  expect((await h.el('footer-repls').innerText()).replace(/\s+/g, ' ')).toContain('REPLs 0')

  await h.send('Start a Python REPL and add up the squares to 100')
  await h.turnStatus(1, 'done', 60_000)
  const turn = h.turns().first()
  const output = (await turn.locator('[data-testid="program-output"]').allInnerTexts()).join('\n')
  expect(output).toContain('value 338350')
  expect(await turn.locator('[data-testid="turn-answer"]').innerText()).toContain('338350')

  const badge = h.el('footer-repls')
  await until('the footer REPL badge to count 1', async () => (await badge.innerText()).replace(/\s+/g, ' ').includes('REPLs 1'))
  await badge.click()
  const panel = await h.visible('repl-panel')
  const row = panel.locator('[data-testid="repl-row"]')
  await until('one REPL row', async () => (await row.count()) === 1)
  await until('the row to be up', async () => (await row.first().getAttribute('data-status')) === 'up')
  const rowText = await row.first().innerText()
  expect(rowText.toLowerCase()).toContain('python')
  expect(rowText).toMatch(/pid \d+/)

  await row.first().locator('[data-testid="repl-logs"]').click()
  await h.visible('repl-log-view')
  expect(await row.first().locator('[data-testid="repl-logs"]').getAttribute('aria-expanded')).toBe('true')

  await row.first().locator('[data-testid="repl-stop"]').click()
  await until('the row to go away or show the REPL down', async () => {
    // One read of every row: a row that vanishes between two reads would hang getAttribute.
    const statuses = await row.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')))
    return statuses.every((s) => s === 'down' || s === 'stopped')
  })
  await until('the footer REPL badge to count 0', async () => (await badge.innerText()).replace(/\s+/g, ' ').includes('REPLs 0'))
  expect(await panel.locator('[role="alert"]').count(), 'Stop reported no error').toBe(0)
})
