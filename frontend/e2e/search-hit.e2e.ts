// Search lands on the hit: in a session longer than the window, a word of an
// early turn's Markdown answer is found; the snippet is plain text with the
// word highlighted, and opening the hit shows that turn (flashed), not the
// bottom of the session.
import { expect } from 'vitest'
import { scenario, until } from './harness'

const TURNS = 8
const filler = (n: number) => Array.from({ length: 30 }, (_, i) => `Paragraph ${i + 1} of answer ${n}.\n\n`).join('')

scenario('search-lands-on-hit', async (h) => {
  await h.start({
    script: Array.from({ length: TURNS }, (_, k) => ({
      content: k === 1 ? ['## Found\n\nThe **`pelican`** nests in [the harbour](https://example.org).\n\n', filler(k + 1)] : [filler(k + 1)],
    })),
  })
  // The transcript renders only the turns near the viewport: wait on each by its position.
  for (let k = 1; k <= TURNS; k++) {
    await h.send(`Question ${k}`)
    const t = h.page.locator(`[data-testid="turn"][data-turn="${k}"]`)
    await until(`turn ${k} to be done`, async () => (await t.count()) === 1 && (await t.getAttribute('data-status')) === 'done', 30_000)
  }
  // Resizing a long transcript re-measures its rows: no ResizeObserver loop
  // notice (WebKitGTK raised it as "Something went wrong").
  await h.page.evaluate(() => {
    const w = window as unknown as { roLoops: number }
    w.roLoops = 0
    window.addEventListener('error', (e) => {
      if (/ResizeObserver loop/.test(e.message)) w.roLoops++
    })
  })
  for (const [width, height] of [
    [700, 500],
    [1400, 900],
    [900, 600],
    [1280, 860],
  ]) {
    await h.page.setViewportSize({ width, height })
    await h.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
  }
  expect(await h.page.evaluate(() => (window as unknown as { roLoops: number }).roLoops)).toBe(0)

  // The session was opened at its end.
  const box = await h.visible('session-search')
  await box.fill('pelican')
  await until('one search hit', async () => (await h.el('search-hit').count()) === 1)
  const hit = h.el('search-hit').first()
  const snippet = await hit.locator('.snippet').innerText()
  expect(snippet).not.toMatch(/[`*#[\]]/)
  expect(await hit.locator('mark').innerText()).toBe('pelican')
  await hit.click()

  const target = h.page.locator('[data-testid="turn"][data-turn="2"]')
  await until('turn 2 to be focused', async () => (await target.getAttribute('data-focused')) === 'true')
  const inView = async (sel: string) =>
    h.page.evaluate((s) => {
      const el = document.querySelector(s)
      const sc = document.querySelector('[data-testid="transcript"]')
      if (!el || !sc) return false
      const a = el.getBoundingClientRect()
      const b = sc.getBoundingClientRect()
      return a.bottom > b.top && a.top < b.bottom
    }, sel)
  await until('turn 2 to be in view', () => inView('[data-testid="turn"][data-turn="2"] [data-testid="turn-answer"]'))
  expect(await inView(`[data-testid="turn"][data-turn="${TURNS}"] [data-testid="turn-answer"]`)).toBe(false)
  expect(await h.el('jump-latest').count()).toBe(1)
})
