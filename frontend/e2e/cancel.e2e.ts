// Stop a turn whose model never finishes (a hanging stream): the engine stops
// it, the turn shows as cancelled, and the session takes the next request
// normally.
import { expect } from 'vitest'
import { scenario, sleep, until } from './harness'

scenario('cancel-long-turn', async (h) => {
  await h.start({
    script: [
      { reasoning: ['Let me look ', 'at every file ', 'very slowly…'], hang_after: 4, delay: '50ms' },
      { content: ['Back again: ', '**ready**.'] },
    ],
  })
  // Send with the button this time (Enter is covered elsewhere).
  const input = await h.visible('composer-input')
  await input.fill('Take forever, please')
  await (await h.visible('composer-send')).click()
  await h.turnStatus(1, 'running')
  await sleep(500) // let the stream reach its hang
  expect(await h.turns().first().getAttribute('data-status')).toBe('running')

  await (await h.visible('composer-stop')).click()
  await h.turnStatus(1, /cancel/)
  await until('the Stop button to go away', async () => (await h.el('composer-stop').count()) === 0 || !(await h.el('composer-stop').first().isVisible()))
  expect(await (await h.visible('composer-input')).inputValue(), 'nothing was queued: nothing comes back').toBe('')
  expect(h.requests(), 'one request: the stopped turn made no other').toHaveLength(1)

  // The session goes on.
  await h.send('Are you there?')
  await h.turnStatus(2, 'done')
  expect(await h.turns().nth(1).locator('[data-testid="turn-answer"]').innerText()).toContain('Back again: ready.')
  expect(await h.turns().first().getAttribute('data-status'), 'the cancelled turn stays cancelled').toMatch(/cancel/)
  expect(h.lastUserTexts()).toHaveLength(2)
  expect(h.lastUserTexts()[1]).toContain('Are you there?')
})
