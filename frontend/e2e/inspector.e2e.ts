// The prompt inspector shows, for an iteration, exactly what was sent: tagged
// blocks from SYSTEM-PROMPT to CURRENT-USER-MESSAGE with their sizes; the
// second iteration's request also carries the first program's result.
import { expect } from 'vitest'
import { type Harness, scenario, until } from './harness'

const request = 'Show me what you were told'

async function inspect(h: Harness, n: number): Promise<{ tags: string[]; texts: string[] }> {
  await h.el('inspector-open').nth(n - 1).click()
  const insp = await h.visible('inspector')
  await until('inspector blocks', async () => (await h.el('inspector-block').count()) > 0)
  const blocks = h.el('inspector-block')
  const tags = await blocks.evaluateAll((bs) => bs.map((b) => b.getAttribute('data-tag') ?? ''))
  // Blocks may be collapsed <details>: open each as a person would, by its summary.
  for (let i = 0; i < tags.length; i++) {
    const b = blocks.nth(i)
    if ((await b.evaluate((e) => e.tagName)) === 'DETAILS' && !(await b.evaluate((e) => (e as HTMLDetailsElement).open))) {
      await b.locator('summary').first().click()
    }
  }
  const texts = await blocks.allInnerTexts()
  const all = await insp.innerText()
  expect(all, 'sizes in characters').toMatch(/char/i)
  expect(all, 'estimated tokens').toMatch(/token/i)
  return { tags, texts }
}

async function close(h: Harness): Promise<void> {
  await (await h.visible('inspector-close')).click()
  await until('the inspector to close', async () => (await h.el('inspector').count()) === 0 || !(await h.el('inspector').first().isVisible()))
}

scenario('inspector', async (h) => {
  await h.start({
    script: [
      { code: "print('inspected-' + 'output')", usage: { input_tokens: 800, output_tokens: 20 } },
      { content: ['Done ', 'inspecting.'], usage: { input_tokens: 900, output_tokens: 5 } },
    ],
  })
  await h.send(request)
  await h.turnStatus(1, 'done')
  await until('two iterations', async () => (await h.el('iteration').count()) === 2)
  expect(await h.el('inspector-open').count(), 'one inspector button per iteration').toBe(2)

  const first = await inspect(h, 1)
  expect(first.tags[0]).toBe('SYSTEM-PROMPT')
  const cur = first.tags.indexOf('CURRENT-USER-MESSAGE')
  expect(cur, `CURRENT-USER-MESSAGE among ${first.tags.join(', ')}`).toBeGreaterThan(0)
  expect(first.texts[cur]).toContain(request)
  await close(h)

  const second = await inspect(h, 2)
  expect(second.tags[0]).toBe('SYSTEM-PROMPT')
  expect(second.tags.length, 'iteration 2 was sent more than iteration 1').toBeGreaterThan(first.tags.length)
  expect(second.texts.join('\n'), "iteration 2's request carries the program's output").toContain('inspected-output')
  await close(h)
})
