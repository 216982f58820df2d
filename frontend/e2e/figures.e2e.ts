// The footer while a turn runs and the window as it is resized: the tokens
// count each reply as it arrives (the turn is still running), the provider
// is named by its host, not by an id; a long output's "show all" and window
// resizes raise no "Something went wrong" banner (the benign ResizeObserver
// notice); /help prints Markdown, not backticks.
import { expect } from 'vitest'
import { scenario, until } from './harness'

scenario('live-figures', async (h) => {
  const page = await h.start({
    script: [
      // A long output, then the turn waits in its second model call.
      { code: 'for i in range(400):\n    print("line", i)', usage: { input_tokens: 1000, output_tokens: 100 } },
      { hang: true },
    ],
  })
  await h.send('Print many lines')
  await h.turnStatus(1, 'running')
  const tokens = await h.visible('footer-tokens')
  await until('the footer to count the first reply while the turn runs', async () => (await tokens.innerText()).trim() === '1.1k tokens')
  expect(await h.turns().first().getAttribute('data-status')).toBe('running')

  const provider = (await (await h.visible('footer-provider')).innerText()).trim()
  expect(provider).toBe(new URL(h.llmURL).host)

  // "show all" on the long output, then resizes: no error banner, and the
  // transcript's own observer causes no ResizeObserver loop notice.
  await page.evaluate(() => {
    const w = window as unknown as { roLoops: number }
    w.roLoops = 0
    window.addEventListener('error', (e) => {
      if (/ResizeObserver loop/.test(e.message)) w.roLoops++
    })
  })
  const more = await h.visible('show-all')
  await more.click()
  for (const [w, hgt] of [
    [900, 600],
    [1400, 900],
    [700, 500],
    [1280, 860],
  ]) {
    await page.setViewportSize({ width: w, height: hgt })
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
  }
  await h.assertHealthy()
  expect(await page.evaluate(() => (window as unknown as { roLoops: number }).roLoops)).toBe(0)

  await (await h.visible('composer-stop')).click()
  await h.turnStatus(1, 'cancelled')

  await h.send('/help')
  const out = await h.visible('command-result')
  await until('/help to show its commands', async () => (await out.innerText()).includes('/goal'))
  expect(await out.innerText()).not.toContain('`')
  expect(await out.locator('code').count()).toBeGreaterThan(1)
})
