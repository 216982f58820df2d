// Attachments say at once what Send will do with them: with a model that has
// no vision, a picked text file shows "not an image" on its chip (no
// picture) and a picked PNG says it will be named, not sent, before Send;
// the verdicts are the engine's (CheckImages). Sent, the model gets no
// image part and the manifest names both with the same reasons.
import { expect } from 'vitest'
import { contentText, scenario, tid, until } from './harness'

// A 2×2 red PNG.
const RED = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg=='

scenario('image-reasons', async (h) => {
  await h.start({ model: 'fake-model', script: [{ content: ['I cannot see images.'] }] })
  const page = h.page
  await h.visible('composer-input')
  await page.locator(tid('attach-input')).setInputFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('TODO: take a screenshot\n') },
    { name: 'red.png', mimeType: 'image/png', buffer: Buffer.from(RED, 'base64') },
  ])
  const chips = h.el('attach-thumb')
  await until('both chips checked by the engine', async () =>
    (await chips.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.state).join(','))) === 'refused,named',
  )
  expect(await chips.nth(0).locator(tid('attach-reason')).innerText()).toBe('not an image')
  expect(await chips.nth(0).locator('img').count(), 'no picture for a text file').toBe(0)
  expect(await chips.nth(1).locator(tid('attach-reason')).innerText()).toBe('will be named, not sent (the model has no vision)')
  expect(await chips.nth(1).locator('img').count(), 'the PNG shows its picture').toBe(1)
  await h.record('reasons')
  expect(h.requests(), 'nothing reaches the model before Send').toHaveLength(0)

  await h.send('What are these?')
  await h.turnStatus(1, 'done')
  const req = h.requests()
  expect(req).toHaveLength(1)
  const user = req[0].messages.filter((m) => m.role === 'user').pop()!
  expect(JSON.stringify(user.content), 'no image part is sent').not.toContain('image_url')
  const text = contentText(user.content)
  expect(text).toMatch(/notes\.txt[^\n]*not an image/)
  expect(text).toMatch(/red\.png[^\n]*no vision/)
})
