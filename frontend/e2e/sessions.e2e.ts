// Two sessions: a reload finds the open one intact; the sidebar switches
// between them; search finds each by a word of its answer.
import { expect } from 'vitest'
import { type Harness, scenario, until } from './harness'

async function activeSession(h: Harness): Promise<string> {
  return until('an active session-item (aria-current="true")', async () => {
    const item = h.page.locator('[data-testid="session-item"][aria-current="true"]')
    if ((await item.count()) !== 1) return ''
    return (await item.getAttribute('data-session-id')) ?? ''
  })
}

/** Waits until the transcript shows exactly one finished turn with this request and answer word. */
async function shows(h: Harness, request: string, word: string): Promise<void> {
  await until(`the transcript to show "${request}" answered with "${word}"`, async () => {
    if ((await h.turns().count()) !== 1) return false
    const t = h.turns().first()
    return (
      (await t.getAttribute('data-status')) === 'done' &&
      (await t.locator('[data-testid="turn-request"]').innerText()).includes(request) &&
      (await t.locator('[data-testid="turn-answer"]').innerText()).includes(word)
    )
  })
}

async function open(h: Harness, id: string): Promise<void> {
  await h.page.locator(`[data-testid="session-item"][data-session-id="${id}"]`).click()
  await until(`session ${id} to become the active session-item`, async () => (await activeSession(h)) === id)
}

async function search(h: Harness, word: string): Promise<void> {
  const box = await h.visible('session-search')
  await box.fill(word)
  await until(`exactly one search-hit for "${word}"`, async () => (await h.el('search-hit').count()) === 1)
  await h.el('search-hit').first().click()
}

/** Empties the search box: the sidebar lists the sessions again. */
async function clearSearch(h: Harness): Promise<void> {
  await h.el('session-search').fill('')
  await until('the session list to come back', async () => (await h.el('session-item').count()) === 2)
}

scenario('sessions-reload-switch-search', async (h) => {
  await h.start({
    script: [
      { content: ['Alpha answer: the ', 'pelican ', 'nests here.'] },
      { content: ['Beta answer: a ', 'walrus ', 'sleeps there.'] },
    ],
  })
  const qa = 'First question alpha'
  const qb = 'Second question beta'

  await h.send(qa)
  await shows(h, qa, 'pelican')
  const a = await activeSession(h)

  await (await h.visible('session-new')).click()
  await until('the new session to start empty', async () => (await h.turns().count()) === 0)
  await h.send(qb)
  await shows(h, qb, 'walrus')
  const b = await activeSession(h)
  expect(b).not.toBe(a)
  await until('two session-item rows', async () => (await h.el('session-item').count()) === 2)

  // Reload: the session is intact.
  await h.page.reload({ waitUntil: 'load' })
  await shows(h, qb, 'walrus')
  expect(await activeSession(h)).toBe(b)
  expect(await h.el('session-item').count()).toBe(2)

  // Switch back and forth.
  await open(h, a)
  await shows(h, qa, 'pelican')
  await open(h, b)
  await shows(h, qb, 'walrus')

  // Search by a word of each answer.
  await search(h, 'pelican')
  await shows(h, qa, 'pelican')
  await clearSearch(h)
  expect(await activeSession(h)).toBe(a)
  await search(h, 'walrus')
  await shows(h, qb, 'walrus')
  await clearSearch(h)
  expect(await activeSession(h)).toBe(b)
})
