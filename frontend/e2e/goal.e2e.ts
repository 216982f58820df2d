// Issue 4: the goal panel's buttons. A goal set with `/goal --budget 5 ...` in
// the composer shows above the transcript as active; its first prose reply is
// progress (the turn goes on); Pause while the next reply streams halts the
// turn before another model call; Resume, Cancel and Clear change the status
// (buttons the rules forbid are disabled); Clear hides the panel. Then a goal
// is set through the panel's own form (opened from the footer badge), with a
// malformed budget refused first.
import { expect } from 'vitest'
import { type Harness, scenario, until } from './harness'

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

scenario('goal', async (h) => {
  await h.start({
    script: [
      // Prose while a goal is active is progress: the same turn goes on.
      { content: ['Progress: ', 'read the README; ', 'the headings come next.'], usage: { input_tokens: 500, output_tokens: 20 } },
      // Slow enough that Pause lands while it streams; the turn must then halt
      // before a third model call (the script has none: a call would fail the turn).
      {
        reasoning: Array.from({ length: 16 }, (_, i) => `thinking ${i + 1}… `),
        code: "print('tidied the headings')",
        usage: { input_tokens: 600, output_tokens: 30 },
        delay: '400ms',
      },
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

  // The prose reply did not end the turn: a second iteration starts.
  const turn = h.turns().first()
  await until('a second iteration (the prose was progress)', async () => (await turn.locator('[data-iteration="2"]').count()) > 0)
  expect(await turn.getAttribute('data-status')).toBe('running')

  await press(h, 'pause', 'paused')
  expect(await enabled(h), 'paused: Resume, Cancel and Clear; no Pause').toEqual({ pause: false, resume: true, cancel: true, clear: true })
  // The reply in flight finishes and its program runs; then the turn halts with no further model call.
  await h.turnStatus(1, 'halted', 30_000)
  await until('the program of the second iteration to have run', async () =>
    (await turn.locator('[data-testid="program-output"]').allInnerTexts()).join('\n').includes('tidied the headings'),
  )
  expect(await turn.innerText()).toContain('Goal stopped by the user.')
  // Two responses came back, the second after the pause: the engine charges a
  // response only to the goal at the version its request started with, so the
  // second may or may not count. Either way the budget of 5 shows.
  await until('the panel to count the iterations against the budget of 5', async () =>
    /\b[12] of 5 iterations\b/.test(await h.el('goal-panel').innerText()),
  )
  expect(await h.el('error-card').count(), 'no third model call was made').toBe(0)

  await press(h, 'resume', 'active')
  expect(await enabled(h)).toEqual({ pause: true, resume: false, cancel: true, clear: true })
  expect(await h.turns().count(), 'Resume starts no turn').toBe(1)

  await press(h, 'cancel', 'cancelled')
  expect(await enabled(h), 'cancelled: only Clear').toEqual({ pause: false, resume: false, cancel: false, clear: true })
  await until('the footer badge to show cancelled', async () => (await h.el('footer-goal').getAttribute('data-status')) === 'cancelled')

  await (await h.visible('goal-clear')).click()
  await until('the panel to go away after Clear', async () => (await h.el('goal-panel').count()) === 0)
  await until('the footer badge to show no goal', async () => (await h.el('footer-goal').innerText()).includes('no goal'))

  // The panel's form, opened from the footer badge.
  await (await h.visible('footer-goal')).click()
  const objective = await h.visible('goal-objective-input')
  const budget = await h.visible('goal-budget-input')
  await objective.fill('write a CHANGELOG')
  await budget.fill('three')
  await (await h.visible('goal-set')).click()
  const err = await h.visible('goal-error')
  expect(await err.innerText()).toMatch(/whole number/)
  expect(await h.el('goal-status').count(), 'a refused form sets no goal').toBe(0)

  await budget.fill('3')
  await (await h.visible('goal-set')).click()
  await goalStatus(h, 'active')
  const text = await h.el('goal-panel').innerText()
  expect(text).toContain('write a CHANGELOG')
  expect(text).toContain('0 of 3 iterations')
  expect(await h.el('goal-objective-input').count(), 'the form closes once the goal is set').toBe(0)
  expect(await h.el('goal-error').count(), 'the old error is gone').toBe(0)
  expect(await enabled(h)).toEqual({ pause: true, resume: false, cancel: true, clear: true })
  expect(await h.turns().count(), 'setting a goal from the form starts no turn').toBe(1)
  await until('the footer badge to show the new active goal', async () => (await h.el('footer-goal').getAttribute('data-status')) === 'active')
})
