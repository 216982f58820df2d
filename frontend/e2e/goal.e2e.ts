// The goal panel drives the engine's goal turns. A goal set with
// `/goal --budget 5 ...` in the composer shows above the transcript as
// active and starts its turn; its first prose reply is progress (the turn
// goes on); Pause while the next reply streams halts the turn at once, with
// no further model request; Resume starts a new goal turn; Cancel halts that
// one; Clear hides the panel. Then, in a new session, a goal is set through
// the panel's own form (opened from the footer badge, a malformed budget
// refused first): the engine creates the session, the window opens it, and
// the goal's turn asks the model for the objective.
import { expect } from 'vitest'
import { type Harness, scenario, sleep, until } from './harness'

type Action = 'pause' | 'resume' | 'cancel' | 'clear'

/** Which of the panel's four buttons are enabled, by action. */
async function enabled(h: Harness): Promise<Record<Action, boolean>> {
  const out = {} as Record<Action, boolean>
  for (const a of ['pause', 'resume', 'cancel', 'clear'] as Action[]) out[a] = await h.el(`goal-${a}`).first().isEnabled()
  return out
}

async function goalStatus(h: Harness, status: string, timeout = 20_000): Promise<void> {
  await until(`goal-status to be ${status}`, async () => {
    const chip = h.el('goal-status').first()
    if (!(await chip.count())) return false
    return (await chip.getAttribute('data-status')) === status
  }, timeout)
}

async function press(h: Harness, a: Action, then: string): Promise<void> {
  await (await h.visible(`goal-${a}`)).click()
  await goalStatus(h, then)
}

/** Waits until the stream of the current request has started (the model is mid-reply). */
async function streaming(h: Harness, turn: number, iteration: number, requests: number): Promise<void> {
  await until(`request ${requests} to be sent`, async () => h.requests().length === requests)
  const it = h.turns().nth(turn - 1).locator(`[data-iteration="${iteration}"]`)
  await until(`turn ${turn} iteration ${iteration} to stream`, async () => (await it.count()) > 0 && /thinking/.test((await it.first().textContent()) ?? ''))
}

/** Slow enough that a control lands while it streams; a program that would run if it finished. */
const slowReply = (what: string) => ({
  reasoning: Array.from({ length: 20 }, (_, i) => `thinking ${i + 1}… `),
  code: `print('${what}')`,
  usage: { input_tokens: 600, output_tokens: 30 },
  delay: '300ms',
})

scenario('goal', async (h) => {
  await h.start({
    script: [
      // Prose while a goal is active is progress: the same turn goes on.
      { content: ['Progress: ', 'read the README; ', 'the headings come next.'], usage: { input_tokens: 500, output_tokens: 20 } },
      // Paused while it streams: the turn halts before it ends.
      slowReply('tidied the headings'),
      // The resumed goal's turn, cancelled while it streams.
      slowReply('resumed work'),
      // The goal set from the form in a new session: the model completes it, then answers.
      { code: 'update_goal("complete")', usage: { input_tokens: 400, output_tokens: 10 } },
      { content: ['The CHANGELOG ', 'is written.'], usage: { input_tokens: 450, output_tokens: 10 } },
    ],
  })
  expect(await h.el('goal-panel').count(), 'no goal, no panel').toBe(0)

  await h.send('/goal --budget 5 tidy the README')
  await h.turnStatus(1, 'running')
  const panel = await h.visible('goal-panel')
  await goalStatus(h, 'active')
  expect(await panel.innerText()).toContain('tidy the README')
  expect(await enabled(h), 'active: Pause, Cancel and Clear; no Resume').toEqual({ pause: true, resume: false, cancel: true, clear: true })
  await until('the footer badge to show the active goal', async () => (await h.el('footer-goal').getAttribute('data-status')) === 'active')
  expect(h.lastUserTexts()[0], "the goal's turn asks the model for the objective").toContain('tidy the README')

  // The prose reply did not end the turn: a second iteration streams.
  const turn = h.turns().first()
  await streaming(h, 1, 2, 2)
  expect(await turn.getAttribute('data-status')).toBe('running')

  // Pause mid-stream: the engine halts the turn at once, with no further model request.
  await press(h, 'pause', 'paused')
  expect(await enabled(h), 'paused: Resume, Cancel and Clear; no Pause').toEqual({ pause: false, resume: true, cancel: true, clear: true })
  await h.turnStatus(1, 'halted', 10_000)
  expect(await turn.innerText()).toContain('Goal stopped by the user.')
  expect(await turn.locator('[data-testid="program-output"]').count(), 'the reply in flight was stopped before its program ran').toBe(0)
  await sleep(1500)
  expect(h.requests(), 'no model request after the pause').toHaveLength(2)
  expect(await h.turns().count()).toBe(1)
  await until('the panel to count the iterations against the budget of 5', async () =>
    /\b[12] of 5 iterations\b/.test(await h.el('goal-panel').innerText()),
  )

  // Resume starts a new goal turn; Cancel halts it mid-stream.
  await press(h, 'resume', 'active')
  await h.turnStatus(2, 'running')
  expect(await enabled(h)).toEqual({ pause: true, resume: false, cancel: true, clear: true })
  await streaming(h, 2, 1, 3)
  expect(h.lastUserTexts()[2], 'the resumed turn asks the model to go on with the goal').toContain('tidy the README')
  await press(h, 'cancel', 'cancelled')
  await h.turnStatus(2, 'halted', 10_000)
  expect(await enabled(h), 'cancelled: only Clear').toEqual({ pause: false, resume: false, cancel: false, clear: true })
  await until('the footer badge to show cancelled', async () => (await h.el('footer-goal').getAttribute('data-status')) === 'cancelled')
  await sleep(1000)
  expect(h.requests(), 'no model request after the cancel').toHaveLength(3)

  await (await h.visible('goal-clear')).click()
  await until('the panel to go away after Clear', async () => (await h.el('goal-panel').count()) === 0)
  await until('the footer badge to show no goal', async () => (await h.el('footer-goal').innerText()).includes('no goal'))
  expect(await h.turns().count(), 'Clear starts no turn').toBe(2)

  // A new session: the panel's form, opened from the footer badge.
  await (await h.visible('session-new')).click()
  await until('the new session (no turns)', async () => (await h.turns().count()) === 0)
  await (await h.visible('footer-goal')).click()
  const objective = await h.visible('goal-objective-input')
  const budget = await h.visible('goal-budget-input')
  await objective.fill('write a CHANGELOG')
  await budget.fill('three')
  await (await h.visible('goal-set')).click()
  const err = await h.visible('goal-error')
  expect(await err.innerText()).toMatch(/whole number/)
  expect(await h.el('goal-status').count(), 'a refused form sets no goal').toBe(0)
  expect(await h.el('session-item').count(), 'a refused form creates no session').toBe(1)

  await budget.fill('3')
  await (await h.visible('goal-set')).click()
  // The engine created the session and started the goal's turn; the window shows it.
  await until('the new session to be open', async () => (await h.el('session-item').count()) === 2 &&
    (await h.page.locator('[data-testid="session-item"][aria-current="true"]').count()) === 1)
  await h.turnStatus(1, /running|done/)
  expect(await h.el('turn-request').first().innerText()).toBe('/goal --budget 3 write a CHANGELOG')
  expect(await h.el('goal-objective-input').count(), 'the form closes once the goal is set').toBe(0)
  expect(await h.el('goal-error').count(), 'the old error is gone').toBe(0)
  await until('the goal turn to ask the model', async () => h.requests().length >= 4)
  expect(h.lastUserTexts()[3], "the goal's turn asks the model for the objective").toContain('write a CHANGELOG')
  // The model completes the goal and answers: the turn ends done.
  await h.turnStatus(1, 'done', 30_000)
  await goalStatus(h, 'complete')
  expect(await h.el('goal-panel').innerText()).toContain('write a CHANGELOG')
  expect(await h.el('turn-answer').first().innerText()).toContain('The CHANGELOG is written.')
  expect(h.requests()).toHaveLength(5)
})
