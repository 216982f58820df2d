// The composer's draft and queue belong to their session: a message queued
// while session A runs is sent into A when A's turn ends, even while the
// person looks at another session; the other session's draft stays its own;
// a reload brings back drafts and queued messages (images are not kept).
import { expect } from 'vitest'
import { type Harness, scenario, sleep, until } from './harness'

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

  // A's turn ends while B is shown: the queued message goes into A, not B.
  await until('A to have 2 turns (its queued message sent into it)', async () => /\b2 turns\b/.test(await row(h, a).innerText()), 30_000)
  expect(await h.turns().count(), 'B has no turns').toBe(0)
  expect(await h.el('session-item').count(), 'no session was created for B').toBe(1)
  expect(await input(h), "B's draft is untouched").toBe('Draft in B')

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

  // A runs again with a queued message; then the page reloads (Go keeps the turn running).
  await (await h.visible('composer-input')).fill('')
  await h.send('Second long task in A')
  await h.turnStatus(3, 'running')
  await h.send('Queued before the reload')
  await until('one queue-item in A', async () => (await h.el('queue-item').count()) === 1)
  await h.page.reload({ waitUntil: 'load' })

  // The app opens A again: the queued message is back, marked restored.
  await until('A to be the open session after the reload', async () => (await activeSession(h)) === a)
  await until('the restored queue-item', async () => (await h.el('queue-item').count()) === 1)
  const item = await h.el('queue-item').first().innerText()
  expect(item).toContain('Queued before the reload')
  expect(item.toLowerCase()).toContain('restored')
  await h.record('restored-queue')
  await openNew(h)
  expect(await input(h), "B's draft survives the reload").toBe('Draft in B')
  await open(h, a)

  // The turn that ran across the reload ends: the restored message is sent, as it would have been.
  await until(
    'the restored message to be sent as the fourth turn',
    async () => (await requests(h)).length === 4 && (await h.turns().nth(3).getAttribute('data-status')) === 'done',
    40_000,
  )
  expect((await requests(h))[3]).toBe('Queued before the reload')
  expect(await h.el('queue-item').count()).toBe(0)

  // The app quit while A's turn ran, leaving a queued message (the stored
  // form, as the page writes it): in an idle session it waits for Send.
  await sleep(600) // no unsaved change left to flush over it
  await h.page.evaluate(
    ([key, id]) => {
      const v = { v: 1, drafts: { [id]: { text: '', queue: ['Sent with Send'], images: 1, updated: Date.now() } } }
      localStorage.setItem(key, JSON.stringify(v))
    },
    ['vis.drafts.v1', a],
  )
  await h.page.reload({ waitUntil: 'load' })
  await until('A to be open with the restored queue-item', async () => (await activeSession(h)) === a && (await h.el('queue-item').count()) === 1)
  await h.visible('draft-images-lost')
  const send = await h.visible('composer-send')
  expect(await send.innerText()).toBe('Send queued')
  await h.record('restored-waiting')
  await sleep(1500)
  expect(await h.turns().count(), 'a restored message in an idle session waits for the person').toBe(4)
  await send.click()
  await until(
    'the released message to run as the fifth turn',
    async () => (await requests(h)).length === 5 && (await h.turns().nth(4).getAttribute('data-status')) === 'done',
  )
  expect((await requests(h))[4]).toBe('Sent with Send')
  expect(await h.el('queue-item').count()).toBe(0)
})
