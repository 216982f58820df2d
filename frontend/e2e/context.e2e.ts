// A full context window does not kill the turn. The model prints a long
// output, then a short one; its third request no longer fits the (scripted) model's window and
// is refused as too long. The loop drops the older output to a stub and sends
// again; the turn ends done, the window warns that the context was full, and
// the prompt inspector shows the third request as it was sent — rebuilt,
// with the stub — while the second one is untouched.
import path from 'node:path'
import { expect } from 'vitest'
import { type Harness, scenario, until } from './harness'

async function inspectorText(h: Harness, n: number): Promise<string> {
  await h.el('inspector-open').nth(n - 1).click()
  const insp = await h.visible('inspector')
  await until('inspector blocks', async () => (await h.el('inspector-block').count()) > 0)
  const blocks = h.el('inspector-block')
  for (let i = 0; i < (await blocks.count()); i++) {
    const b = blocks.nth(i)
    if ((await b.evaluate((e) => e.tagName)) === 'DETAILS' && !(await b.evaluate((e) => (e as HTMLDetailsElement).open))) {
      await b.locator('summary').first().click()
    }
  }
  return insp.innerText()
}

async function close(h: Harness): Promise<void> {
  await (await h.visible('inspector-close')).click()
  await until('the inspector to close', async () => (await h.el('inspector').count()) === 0 || !(await h.el('inspector').first().isVisible()))
}

scenario('context-full', async (h) => {
  await h.start({
    script: [
      { code: "print('x' * 15000)" },
      { code: "print('y' * 200)" },
      { content: ['The first output was long; I kept what matters.'], max_input_chars: 20000 },
    ],
  })
  await h.send('Print a long output, then a short one')
  await h.turnStatus(1, 'done', 60_000)
  expect(await h.turns().first().locator('[data-testid="turn-answer"]').innerText()).toContain('kept what matters')
  const banner = await until('the context warning', async () => {
    const texts = await h.el('warning-banner').allInnerTexts()
    return texts.find((t) => t.includes('Context window full')) ?? ''
  }, 30_000)
  expect(banner).toContain('dropped')

  const second = await inspectorText(h, 2)
  expect(await h.el('inspector-rebuilt').count(), 'iteration 2 was sent as built').toBe(0)
  expect(second).toContain('x'.repeat(2000))
  await close(h)

  const third = await inspectorText(h, 3)
  await h.visible('inspector-rebuilt')
  expect(third).toContain('output dropped to fit the context window')
  expect(third, 'the dropped output is not in the request').not.toContain('x'.repeat(2000))
  await h.page.screenshot({ path: path.join(h.out, 'inspector-rebuilt.png') })
  await close(h)

  // The transcript keeps the output the request dropped.
  const out = (await h.turns().first().locator('[data-testid="program-output"]').allInnerTexts()).join('\n')
  expect(out).toContain('x'.repeat(2000))
})
