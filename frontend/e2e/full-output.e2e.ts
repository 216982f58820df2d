// A program that prints 5,000 numbered lines (≈ 89 KB, over the model's
// 64 Ki-char copy): the transcript says "clipped at N of M" under the
// output, "open full output" shows every line up to line 5000, and the
// model's next request still holds only its clipped copy with its note.
import { expect } from 'vitest'
import { contentText, scenario, tid, until } from './harness'

scenario('full-output', async (h) => {
  await h.start({
    script: [
      { code: "for i in range(5000):\n    print('line %04d of 5000: ' % (i + 1) + 'x' * 60)" },
      { content: ['Printed them all.'] },
    ],
  })
  await h.send('Print five thousand lines')
  await h.turnStatus(1, 'done')
  const turn = h.turns().first()

  const marker = turn.locator(tid('output-clipped'))
  await until('the clip marker', async () => (await marker.count()) === 1)
  const said = await marker.innerText()
  expect(said).toMatch(/clipped at 64\.0 KB of 390\.6 KB/)
  expect(await turn.locator(tid('show-all')).innerText()).toMatch(/^show [\d,]+ more lines, up to the clip$/)
  await h.record('folded')
  // "show all" shows the model's copy: the marker stays, it ends before line 5000.
  await turn.locator(tid('show-all')).click()
  await until('the marker after show all', async () => (await marker.count()) === 1)
  expect(await turn.locator(tid('program-output')).innerText()).not.toContain('line 5000 of 5000')
  await h.record('clipped')

  await turn.locator(tid('open-full-output')).click()
  const view = h.page.locator(tid('full-output'))
  await until('the full output view', async () => (await view.count()) === 1)
  const text = h.page.locator(tid('full-output-text'))
  await until('line 5000 in the full output', async () => (await text.innerText()).includes('line 5000 of 5000: '))
  const lines = (await text.innerText()).trimEnd().split('\n')
  expect(lines).toHaveLength(5000)
  expect(lines[0]).toBe(`line 0001 of 5000: ${'x'.repeat(60)}`)
  expect(lines[4999]).toBe(`line 5000 of 5000: ${'x'.repeat(60)}`)
  expect(await h.page.locator(tid('full-output-size')).innerText()).toContain('5,000 lines')
  expect(await h.page.locator(tid('full-output-cut')).count(), 'the 4 MiB keep cap did not apply').toBe(0)
  // The end of it, as a person scrolls there.
  await text.evaluate((el) => (el.scrollTop = el.scrollHeight))
  await h.record('full-output')
  await h.page.locator(tid('full-output-close')).click()
  await until('the view to close', async () => (await view.count()) === 0)

  // The model saw its own clipped copy, as before.
  const reqs = h.requests()
  expect(reqs).toHaveLength(2)
  const result = contentText(reqs[1].messages[reqs[1].messages.length - 1].content)
  expect(result).toContain('# ⋯ output clipped at 65536/')
  expect(result).not.toContain('line 5000 of 5000')
  expect(result).toContain('line 0001 of 5000')
  await h.assertHealthy()
})
