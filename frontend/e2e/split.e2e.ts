// Two sessions side by side, as a person works with them: a long turn
// streams in the left pane; "Split" opens a second pane, where another
// message starts a second session whose turn streams at the same time; each
// pane shows only its own session's turn, answer and footer. After a quit
// and a restart both panes come back with their sessions; closing one leaves
// the other, and "open beside" on a sidebar session splits again.
import { expect } from 'vitest'
import { scenario, tid, until } from './harness'

const slow = (words: string) => words.split(' ').map((w) => w + ' ')

scenario('split-panes', async (h) => {
  await h.start({
    script: [
      // The left pane's turn: 24 chunks 250 ms apart (about 6 s).
      { content: slow('The left answer streams slowly so that the right pane can start its own turn while this one is still arriving word by word here.'), delay: '250ms' },
      // The right pane's turn: faster, so it ends while the left one streams.
      { content: slow('The right answer arrives beside the left one.'), delay: '60ms' },
    ],
  })
  const panes = h.el('session-pane')
  await h.send('Left request')
  await h.turnStatus(1, 'running')
  const left = await until('the left session id', async () => (await panes.first().getAttribute('data-session-id')) ?? '')

  await (await h.visible('pane-split')).click()
  await until('two panes', async () => (await panes.count()) === 2)
  const right = panes.nth(1)
  // The new pane is a new session in the same folder, and the active one.
  await right.locator(tid('composer-input')).fill('Right request')
  await right.locator(tid('composer-input')).press('Enter')

  // Both stream at once: the right turn runs while the left one still does.
  await until('both turns running at the same time', async () => {
    const l = await panes.nth(0).locator(tid('turn')).first().getAttribute('data-status')
    const r = await right.locator(tid('turn')).first().getAttribute('data-status').catch(() => null)
    return l === 'running' && r === 'running'
  })
  await h.record('both-streaming')
  await until('the right turn done', async () => (await right.locator(tid('turn')).first().getAttribute('data-status')) === 'done', 30_000)
  expect(await panes.nth(0).locator(tid('turn')).first().getAttribute('data-status')).toBe('running')
  await until('the left turn done', async () => (await panes.nth(0).locator(tid('turn')).first().getAttribute('data-status')) === 'done', 30_000)

  const rightId = (await right.getAttribute('data-session-id')) ?? ''
  expect(rightId).not.toBe('')
  expect(rightId).not.toBe(left)
  const leftText = await panes.nth(0).locator(tid('turn-answer')).innerText()
  const rightText = await right.locator(tid('turn-answer')).innerText()
  expect(leftText).toContain('The left answer streams slowly')
  expect(rightText).toContain('The right answer arrives beside the left one.')
  expect(await panes.nth(0).locator(tid('turn')).count()).toBe(1)
  expect(await right.locator(tid('turn')).count()).toBe(1)
  expect(await panes.nth(0).locator(tid('turn-request')).innerText()).toBe('Left request')
  expect(await right.locator(tid('turn-request')).innerText()).toBe('Right request')
  // Each request reached the model with its own message only.
  const users = h.lastUserTexts()
  expect(users.some((u) => u.includes('Left request') && !u.includes('Right request'))).toBe(true)
  expect(users.some((u) => u.includes('Right request') && !u.includes('Left request'))).toBe(true)
  await h.record('side-by-side')

  // Quit and start again: the two panes come back with their sessions.
  await h.restartApp()
  await until('two panes after the restart', async () => (await h.el('session-pane').count()) === 2, 30_000)
  await until('the same sessions in the same order', async () => {
    const ids = await h.el('session-pane').evaluateAll((els) => els.map((e) => e.getAttribute('data-session-id')))
    return ids[0] === left && ids[1] === rightId
  })
  await until('both transcripts loaded', async () => (await h.el('turn-answer').count()) === 2)
  await h.record('restored')

  // Close the right pane: the left stays, the right session stays in the sidebar.
  await h.el('session-pane').nth(1).locator(tid('pane-close')).click()
  await until('one pane', async () => (await h.el('session-pane').count()) === 1)
  expect(await h.el('session-pane').first().getAttribute('data-session-id')).toBe(left)
  expect(await h.page.locator(`[data-testid="session-item"][data-session-id="${rightId}"]`).count()).toBe(1)

  // "Open beside" on the right session from the sidebar splits again.
  const row = h.page.locator(`[data-testid="session-item"][data-session-id="${rightId}"]`)
  await row.hover()
  await h.page.locator(`li:has([data-session-id="${rightId}"]) ${tid('session-beside')}`).click()
  await until('two panes again', async () => (await h.el('session-pane').count()) === 2)
  await until('the right session beside the left', async () => (await h.el('session-pane').nth(1).getAttribute('data-session-id')) === rightId)
  await h.assertHealthy()
})
