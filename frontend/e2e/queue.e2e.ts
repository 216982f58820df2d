// Messages sent while a turn runs go to the engine, which queues them (the
// composer shows the engine's queue, editable and removable there) and sends
// them in order after the turn. Stop instead stops the turn and the engine
// hands the whole queue back into the composer, images included (an input
// being edited comes back as edited); nothing of it reaches the model.
import { expect } from 'vitest'
import { type Harness, scenario, sleep, tid, until } from './harness'

// A 2×2 PNG.
const RED = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg=='

const queueTexts = (h: Harness) => h.page.locator(`${tid('queue-item')} .qtext`).allInnerTexts()

async function queueTwo(h: Harness, a: string, b: string): Promise<void> {
  await h.send(a)
  await h.send(b)
  await until('two queue-item entries (the engine queued both)', async () => (await h.el('queue-item').count()) === 2)
  expect(await queueTexts(h)).toEqual([a, b])
  expect(await h.turns().first().getAttribute('data-status'), 'turn 1 must still run while the queue is checked').toBe('running')
}

scenario('queue-then-run', async (h) => {
  const slow = Array.from({ length: 24 }, (_, i) => `part ${i + 1} of the long answer. `)
  await h.start({
    script: [
      { content: slow, delay: '300ms' },
      { content: ['First queued ', 'answer.'] },
      { content: ['Second queued ', 'answer.'] },
    ],
  })
  await h.send('Start a long task')
  await h.turnStatus(1, 'running')
  expect(await (await h.visible('composer-send')).innerText(), 'while a turn runs the button queues').toBe('Queue')
  await queueTwo(h, 'Queued one', 'Queued two')
  await h.send('Drop me')
  await until('three queue-item entries', async () => (await h.el('queue-item').count()) === 3)
  expect(await h.el('queue').innerText()).toContain('Queued · 3')

  // Edit the first through the engine; remove the third.
  await h.el('queue-edit').first().click()
  const edit = h.page.locator(`${tid('queue-item')} textarea`)
  await edit.fill('Queued one, edited')
  await edit.press('Enter')
  await until('the edit to come back in the engine queue', async () => (await queueTexts(h))[0] === 'Queued one, edited')
  await h.el('queue-remove').nth(2).click()
  await until('the removed message to leave the queue', async () => (await h.el('queue-item').count()) === 2)
  expect(await queueTexts(h)).toEqual(['Queued one, edited', 'Queued two'])
  expect(await h.turns().count(), 'nothing queued ran while turn 1 runs').toBe(1)
  expect(h.requests(), 'one request so far').toHaveLength(1)

  // The engine sends them, one turn each, in order.
  await h.turnStatus(1, 'done', 30_000)
  await until(
    'the queued messages to run as turns 2 and 3 and finish',
    async () => {
      if ((await h.turns().count()) !== 3 || (await h.el('queue-item').count()) > 0) return false
      const statuses = await Promise.all([1, 2].map((i) => h.turns().nth(i).getAttribute('data-status')))
      return statuses.every((s) => s === 'done')
    },
    30_000,
  )
  expect(await h.el('turn-request').allInnerTexts()).toEqual(['Start a long task', 'Queued one, edited', 'Queued two'])
  expect(await h.el('turn-answer').last().innerText()).toMatch(/Second queued answer/)
  // What reached the model: three requests, the edited text and not the removed one.
  const asked = h.lastUserTexts()
  expect(asked).toHaveLength(3)
  expect(asked[1]).toContain('Queued one, edited')
  expect(asked[1]).not.toContain('Queued two')
  expect(asked[2]).toContain('Queued two')
  expect(asked.join('\n')).not.toContain('Drop me')
})

scenario('queue-stop-returns', async (h) => {
  await h.start({
    script: [{ reasoning: ['Working ', 'on it…'], hang_after: 3, delay: '50ms' }],
  })
  await h.send('Start a task that hangs')
  await h.turnStatus(1, 'running')
  await h.send('Follow-up A')
  // The second goes with an image: it comes back with it.
  await h.page.locator(tid('attach-input')).setInputFiles([{ name: 'red.png', mimeType: 'image/png', buffer: Buffer.from(RED, 'base64') }])
  await until('the thumbnail', async () => (await h.el('attach-thumb').count()) === 1)
  await h.send('Follow-up B')
  await until('two queue-item entries', async () => (await h.el('queue-item').count()) === 2)
  expect(await h.el('queue-item').nth(1).innerText()).toContain('+1 image')
  expect(await h.el('attach-thumb').count(), 'the image went with the queued message').toBe(0)
  await (await h.visible('composer-input')).fill('still typing')
  // An edit in progress, not saved: Stop brings it back as edited (the
  // engine hands each input back with its queue id).
  await h.el('queue-edit').first().click()
  await h.page.locator(`${tid('queue-item')} textarea`).fill('Follow-up A, edited')

  await (await h.visible('composer-stop')).click()
  await h.turnStatus(1, /cancel/)
  await until('the queue to empty', async () => (await h.el('queue-item').count()) === 0)
  const text = await (await h.visible('composer-input')).inputValue()
  expect(text, 'the queue comes back to the composer, oldest first, the edit as edited, then the draft').toBe(
    'Follow-up A, edited\n\nFollow-up B\n\nstill typing',
  )
  await until('the returned image', async () => (await h.el('attach-thumb').count()) === 1)
  expect(await h.el('attach-thumb').first().locator('img').getAttribute('src')).toMatch(/^data:image\/png;base64,iVBORw0KGgo/)
  // Nothing was sent: no request beyond the first, no second turn.
  await sleep(1500)
  expect(await h.turns().count(), 'Stop must not send the queued messages').toBe(1)
  expect(h.requests(), 'the model got only the first request').toHaveLength(1)
})
