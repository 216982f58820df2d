// Edit and Fork here on a message, as a person uses them: a two-turn
// session; "Edit" on turn 2 opens a new session holding turn 1 only, with
// turn 2's text in its composer; the edited text sent there becomes the
// fork's turn 2 and reaches the model after turn 1's recap, which says the
// session was forked. The original keeps both turns. "Fork here" on the
// original's turn 1 opens a fork holding turn 1, composer empty.
import { expect } from 'vitest'
import { contentText, scenario, tid, until } from './harness'

scenario('fork', async (h) => {
  await h.start({
    script: [
      { content: ['The first answer.'] },
      { content: ['The second answer.'] },
      { content: ['The edited answer.'] },
    ],
  })
  await h.send('First request')
  await h.turnStatus(1, 'done')
  await h.send('Second request')
  await h.turnStatus(2, 'done')
  const original = await h.page.locator('[data-testid="session-item"][aria-current="true"]').getAttribute('data-session-id')

  await h.turns().nth(1).locator(tid('turn-edit')).click()
  await until('the fork to be open', async () => {
    const cur = await h.page.locator('[data-testid="session-item"][aria-current="true"]').getAttribute('data-session-id')
    return cur && cur !== original ? cur : ''
  })
  await until('the fork to hold turn 1 only', async () => (await h.turns().count()) === 1)
  expect(await h.turns().first().locator(tid('turn-request')).innerText()).toBe('First request')
  const input = await h.visible('composer-input')
  await until('the edited message in the composer', async () => (await input.inputValue()) === 'Second request')
  expect(await h.el('session-item').count()).toBe(2)
  expect(await h.page.locator('[data-testid="session-item"][aria-current="true"]').innerText()).toContain('(fork at turn 1)')
  await h.record('edit')

  await input.fill('Second request, edited')
  await input.press('Enter')
  await h.turnStatus(2, 'done')
  expect(await h.turns().nth(1).locator(tid('turn-request')).innerText()).toBe('Second request, edited')
  const sent = (h.requests().at(-1)?.messages ?? []).map((m) => contentText(m.content)).join('\n')
  expect(sent).toContain('Second request, edited')
  expect(sent).toContain(`This session was forked from session ${original} after this turn`)
  expect(sent).not.toContain('Second request\n')

  // The original is unchanged: both turns, as they were.
  await h.page.locator(`[data-testid="session-item"][data-session-id="${original}"]`).click()
  await until('the original to show both turns', async () => (await h.turns().count()) === 2)
  expect(await h.turns().nth(1).locator(tid('turn-request')).innerText()).toBe('Second request')

  // Fork here: the turns up to this one, an empty composer.
  await h.turns().first().locator(tid('turn-fork')).click()
  await until('a second fork to be open', async () => (await h.el('session-item').count()) === 3)
  await until('it holds turn 1', async () => (await h.turns().count()) === 1)
  expect(await (await h.visible('composer-input')).inputValue()).toBe('')
  await h.record('fork-here')
  await h.assertHealthy()
})
