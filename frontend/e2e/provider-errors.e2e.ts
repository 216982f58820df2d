// A model server that refuses the key, then does not know the model: each
// failure is one sentence that says what to do (no Go error text), with a
// Retry button; Retry sends the request again and the turn then works.
import { expect } from 'vitest'
import { scenario, until } from './harness'

scenario('provider-errors', async (h) => {
  await h.start({
    script: [
      { status: 401, message: 'Incorrect API key provided' },
      { status: 404, message: "model 'fake-model' not found" },
      { content: ['Working now.'] },
    ],
  })
  const request = 'Summarise the README'
  await h.send(request)
  await h.turnStatus(1, 'error')
  const card = h.turns().nth(0).locator('[data-testid="error-card"]')
  await until('the 401 sentence', async () => (await card.innerText()).includes('refused the API key (401): check the key in Settings'))
  const text = await card.innerText()
  expect(text).not.toMatch(/provider http|dial tcp|authentication failed/)

  await (await h.visible('turn-retry')).click()
  await h.turnStatus(2, 'error')
  const second = h.turns().nth(1).locator('[data-testid="error-card"]')
  await until('the unknown-model sentence', async () => (await second.innerText()).includes('"fake-model" is not available'))
  expect(await second.innerText()).toContain('pick another model in Settings')
  // Only the last failed turn offers Retry.
  expect(await h.turns().nth(0).locator('[data-testid="turn-retry"]').count()).toBe(0)

  await h.turns().nth(1).locator('[data-testid="turn-retry"]').click()
  await h.turnStatus(3, 'done')
  expect(await h.turns().nth(2).locator('[data-testid="turn-request"]').innerText()).toContain(request)
  expect(h.lastUserTexts().filter((t) => t.includes(request))).toHaveLength(3)
})
