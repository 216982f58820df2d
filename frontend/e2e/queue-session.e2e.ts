// The queue is the engine's and belongs to its session: a message queued
// while session A runs is sent into A by the engine when A's turn ends, even
// while the person looks at another session; each session keeps its own
// draft. A page reload changes nothing (the engine still holds the queue);
// a Vis that quit leaves its queue held: it comes back marked restored and
// waits for Send.
import { expect } from 'vitest'
import { type Harness, scenario, sleep, tid, until } from './harness'

async function activeSession(h: Harness): Promise<string> {
  return until('an active session-item (aria-current="true")', async () => {
    const item = h.page.locator('[data-testid="session-item"][aria-current="true"]')
    if ((await item.count()) !== 1) return ''
    return (await item.getAttribute('data-session-id')) ?? ''
  })
}

const row = (h: Harness, id: string) => h.page.locator(`[data-testid="session-item"][data-session-id="${id}"]`)

async function open(h: Harness, id: string): Promise<void> {
  await row(h, id).click()
  await until(`session ${id} to become the active session-item`, async () => (await activeSession(h)) === id)
}

/** The new, not yet created session of the workspace (no active session-item, no turns). */
async function openNew(h: Harness): Promise<void> {
  await (await h.visible('session-new')).click()
  await until('the new session to show no turns and no active session-item', async () => {
    const active = await h.page.locator('[data-testid="session-item"][aria-current="true"]').count()
    return active === 0 && (await h.turns().count()) === 0
  })
}

const input = async (h: Harness) => (await h.visible('composer-input')).inputValue()
const requests = async (h: Harness) => h.el('turn-request').allInnerTexts()
const queueTexts = (h: Harness) => h.page.locator(`${tid('queue-item')} .qtext`).allInnerTexts()

const slow = (n: number, what: string) => ({
  content: Array.from({ length: n }, (_, i) => `${what} part ${i + 1}. `),
  delay: '300ms',
})

scenario('queue-per-session', async (h) => {
  await h.start({
    script: [
      slow(16, 'First long answer'),
      { content: ['Answer to the ', 'queued message.'] },
      slow(24, 'Second long answer'),
      { content: ['Answer after ', 'the reload.'] },
      // Cut when the app quits; the fake's stream of it ends there.
      slow(60, 'Third long answer'),
      { content: ['Answer to the message ', 'sent with Send.'] },
    ],
  })

  // Session A runs a slow turn; the person queues a message in A.
  await h.send('Long task in A')
  await h.turnStatus(1, 'running')
  const a = await activeSession(h)
  await h.send('Queued for A')
  await until('one queue-item in A', async () => (await h.el('queue-item').count()) === 1)

  // A new session B: its composer is its own (no queue from A), and the person drafts there.
  await openNew(h)
  expect(await h.el('queue-item').count(), "A's queue must not show in B").toBe(0)
  expect(await input(h)).toBe('')
  await (await h.visible('composer-input')).fill('Draft in B')

  // A's turn ends while B is shown: the engine sends the queued message into A, not B.
  await until('A to have 2 turns (its queued message sent into it)', async () => /\b2 turns\b/.test(await row(h, a).innerText()), 30_000)
  expect(await h.turns().count(), 'B has no turns').toBe(0)
  expect(await h.el('session-item').count(), 'no session was created for B').toBe(1)
  expect(await input(h), "B's draft is untouched").toBe('Draft in B')
  await until('the model to get the queued message', async () => h.lastUserTexts().length === 2)
  expect(h.lastUserTexts()[1]).toContain('Queued for A')

  await open(h, a)
  await h.turnStatus(2, 'done')
  expect(await requests(h)).toEqual(['Long task in A', 'Queued for A'])
  expect(await h.el('queue-item').count()).toBe(0)
  expect(await input(h), "A's input is empty").toBe('')

  // Back and forth: each keeps its own draft.
  await (await h.visible('composer-input')).fill('Draft in A')
  await openNew(h)
  expect(await input(h)).toBe('Draft in B')
  await open(h, a)
  expect(await input(h)).toBe('Draft in A')

  // A runs again with a queued message; then the page reloads (the engine keeps running and queueing).
  await (await h.visible('composer-input')).fill('')
  await h.send('Second long task in A')
  await h.turnStatus(3, 'running')
  await h.send('Queued before the reload')
  await until('one queue-item in A', async () => (await h.el('queue-item').count()) === 1)
  await h.page.reload({ waitUntil: 'load' })

  // The app opens A again: the engine's queue shows as it was (not held: this engine sends it).
  await until('A to be the open session after the reload', async () => (await activeSession(h)) === a)
  await until('the queue-item after the reload', async () => (await h.el('queue-item').count()) === 1)
  expect(await queueTexts(h)).toEqual(['Queued before the reload'])
  expect(await h.el('queue-restored').count(), 'a reload holds nothing back').toBe(0)
  await openNew(h)
  expect(await input(h), "B's draft survives the reload").toBe('Draft in B')
  await open(h, a)

  // The turn that ran across the reload ends: the engine sends the queued message.
  await until(
    'the queued message to be sent as the fourth turn',
    async () => (await requests(h)).length === 4 && (await h.turns().nth(3).getAttribute('data-status')) === 'done',
    40_000,
  )
  expect((await requests(h))[3]).toBe('Queued before the reload')
  expect(await h.el('queue-item').count()).toBe(0)

  // A runs once more with a message queued, and Vis quits: the queue stays
  // in the engine's database, held, and comes back with the next start.
  await h.send('Third long task in A')
  await h.turnStatus(5, 'running')
  await h.send('Sent with Send')
  await until('one queue-item in A', async () => (await h.el('queue-item').count()) === 1)
  await sleep(600) // B's draft and A's are saved (the store writes within 250 ms)
  const before = h.requests().length
  await h.restartApp()

  await until('A to be open with the held queue-item', async () => (await activeSession(h)) === a && (await h.el('queue-item').count()) === 1)
  expect(await queueTexts(h)).toEqual(['Sent with Send'])
  expect(await h.el('queue-restored').count()).toBe(1)
  expect(await (await h.visible('queue-held')).innerText()).toContain('restored after a restart · press Send to send it')
  const send = await h.visible('composer-send')
  expect(await send.innerText()).toBe('Send queued')
  await h.record('held-queue')
  await sleep(1500)
  expect(await h.turns().count(), 'a held queue waits for the person').toBe(5)
  expect(h.requests().length, 'nothing reached the model by itself').toBe(before)
  await send.click()
  await until(
    'the held message to run as the sixth turn',
    async () => (await requests(h)).length === 6 && (await h.turns().nth(5).getAttribute('data-status')) === 'done',
  )
  expect((await requests(h))[5]).toBe('Sent with Send')
  expect(h.lastUserTexts().at(-1)).toContain('Sent with Send')
  expect(await h.el('queue-item').count()).toBe(0)
  await openNew(h)
  expect(await input(h), "B's draft survives the restart").toBe('Draft in B')
})
