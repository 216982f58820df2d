// Images in the window: paste one (a screenshot from the clipboard) and pick
// two with the file input (the second is the pasted one again: its chip says
// so before Send), remove it, send; the vision model's request
// carries both as image_url parts (the prompt inspector shows exactly what
// was sent), and the transcript shows them, larger on click.
import { expect } from 'vitest'
import { scenario, tid, until } from './harness'

// 2×2 PNGs, red and blue.
const RED = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg=='
const BLUE = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAD0lEQVR4nGNgYPgPRmAKABf2A/1+6zfzAAAAAElFTkSuQmCC'

scenario('images', async (h) => {
  await h.start({ model: 'gpt-4o', script: [{ content: ['A red square and a blue one.'] }] })
  const page = h.page
  const input = await h.visible('composer-input')
  await input.click()
  // A paste as the clipboard makes it: a file item of type image/png.
  await input.evaluate((el, b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
    const dt = new DataTransfer()
    dt.items.add(new File([bytes], 'image.png', { type: 'image/png' }))
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }))
  }, RED)
  await until('the pasted thumbnail', async () => (await h.el('attach-thumb').count()) === 1)
  expect(await h.el('attach-pick').isVisible()).toBe(true)
  await page.locator(tid('attach-input')).setInputFiles([
    { name: 'blue.png', mimeType: 'image/png', buffer: Buffer.from(BLUE, 'base64') },
    { name: 'extra.png', mimeType: 'image/png', buffer: Buffer.from(RED, 'base64') },
  ])
  await until('three thumbnails', async () => (await h.el('attach-thumb').count()) === 3)
  // The engine's verdicts, before Send: extra.png is the pasted image again.
  await until('the engine to say what Send will do', async () =>
    (await h.el('attach-thumb').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.state).join(','))) === 'sent,sent,refused',
  )
  expect(await h.el('attach-reason').allInnerTexts()).toEqual(['the same image as image 1 — attached once'])
  expect(await h.el('attach-thumb').first().locator('img').getAttribute('src')).toMatch(/^data:image\/png;base64,/)
  await h.record('attached')
  await h.el('attach-thumb').nth(2).locator(tid('attach-remove')).click()
  await until('two thumbnails', async () => (await h.el('attach-thumb').count()) === 2)

  await h.send('What are these?')
  await h.turnStatus(1, 'done')
  expect(await h.el('attach-thumb').count(), 'sent images leave the composer').toBe(0)
  const shown = h.turns().first().locator(tid('turn-image'))
  await until('two images in the transcript', async () => (await shown.count()) === 2)
  await until('the images to load', async () =>
    shown.locator('img').evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth === 2)),
  )
  await shown.nth(1).click()
  const box = await h.visible('image-lightbox')
  expect(await box.innerText()).toContain('blue.png')
  await h.record('lightbox')
  await page.keyboard.press('Escape')
  await until('the lightbox to close', async () => (await h.el('image-lightbox').count()) === 0)

  // What the model was sent: two image parts, then the text.
  await (await h.visible('inspector-open')).click()
  await h.visible('inspector')
  await until('two IMAGE blocks in the inspector', async () => (await page.locator(`${tid('inspector-block')}[data-tag="IMAGE"]`).count()) === 2)
})
