import { afterEach, describe, expect, it, vi } from 'vitest'
import GoalPanel from './GoalPanel.svelte'
import { cleanup, click, one, render, settle, type } from './testkit'
import type { GoalAction } from '../lib/goal'
import type { GoalView } from '../lib/types'

afterEach(cleanup)

function goal(over: Partial<GoalView> = {}): GoalView {
  return {
    id: 'g1',
    session_id: 's1',
    objective: 'make the tests pass',
    status: 'active',
    iteration_budget: 20,
    iterations_used: 5,
    tokens_used: 12_345,
    time_used_ms: 65_000,
    version: 1,
    revision: 1,
    created_at: '',
    updated_at: '',
    ...over,
  }
}

function setup(g: GoalView | null, opts: { refuse?: string; formOpen?: boolean; noGoal?: boolean } = {}) {
  const calls: string[] = []
  const changes: GoalView[] = []
  const props = $state({
    goal: g,
    formOpen: opts.formOpen ?? false,
    setGoal: async (objective: string, budget: number) => {
      calls.push(`set ${objective} ${budget}`)
      if (opts.noGoal) return null
      return goal({ id: 'g2', objective, iteration_budget: budget || null, iterations_used: 0, revision: 9 })
    },
    control: async (a: GoalAction) => {
      calls.push(a)
      if (opts.refuse) throw new Error(opts.refuse)
      if (opts.noGoal) return null
      return goal({ status: a === 'pause' ? 'paused' : a === 'clear' ? 'cleared' : 'active', revision: 2 })
    },
    onchange: (x: GoalView) => {
      changes.push(x)
      props.goal = x
    },
  })
  return { el: render(GoalPanel, props), calls, changes, props }
}

const disabled = (el: HTMLElement, id: string) => one<HTMLButtonElement>(el, id)!.disabled

describe('GoalPanel', () => {
  it('ticks the active time while the goal is active, not while paused', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] })
    try {
      const { el, props } = setup(goal({ time_used_ms: 5000 }))
      vi.advanceTimersByTime(3000)
      await settle()
      expect(one(el, 'goal-panel')!.textContent).toContain('8s active')
      props.goal = goal({ status: 'paused', time_used_ms: 9000, revision: 3 })
      await settle()
      vi.advanceTimersByTime(5000)
      await settle()
      expect(one(el, 'goal-panel')!.textContent).toContain('9s active')
    } finally {
      vi.useRealTimers()
    }
  })

  it('shows the objective, status, iterations against the budget, tokens and active time', () => {
    const { el } = setup(goal())
    const text = one(el, 'goal-panel')!.textContent!.replace(/\s+/g, ' ')
    expect(text).toContain('make the tests pass')
    expect(one(el, 'goal-status')!.textContent).toBe('active')
    expect(text).toContain('5 of 20 iterations')
    expect(text).toContain('12k tokens')
    expect(text).toContain('1m 5s active')
    expect(one(el, 'goal-panel')!.querySelector('[role=progressbar] .fill')!.getAttribute('style')).toContain('width: 25%')
  })

  it('says there is no budget instead of drawing a bar', () => {
    const { el } = setup(goal({ iteration_budget: null, iterations_used: 7 }))
    expect(one(el, 'goal-panel')!.textContent).toContain('7 iterations (no budget)')
    expect(one(el, 'goal-panel')!.querySelector('[role=progressbar]')).toBeNull()
  })

  const cases: { status: string; used?: number; enabled: GoalAction[] }[] = [
    { status: 'active', enabled: ['pause', 'cancel', 'clear'] },
    { status: 'paused', enabled: ['resume', 'cancel', 'clear'] },
    { status: 'paused', used: 20, enabled: ['cancel', 'clear'] },
    { status: 'blocked', enabled: ['resume', 'cancel', 'clear'] },
    { status: 'complete', enabled: ['cancel', 'clear'] },
    { status: 'budget_limited', used: 20, enabled: ['cancel', 'clear'] },
    { status: 'cancelled', enabled: ['clear'] },
  ]
  for (const c of cases) {
    it(`enables ${c.enabled.join(', ')} for a ${c.status} goal${c.used ? ' with its budget spent' : ''}`, () => {
      const { el } = setup(goal({ status: c.status, iterations_used: c.used ?? 5 }))
      const got = (['pause', 'resume', 'cancel', 'clear'] as GoalAction[]).filter((a) => !disabled(el, `goal-${a}`))
      expect(got).toEqual(c.enabled)
    })
  }

  it('calls the control and shows the goal it answers with', async () => {
    const { el, calls } = setup(goal())
    click(one(el, 'goal-pause'))
    await settle()
    expect(calls).toEqual(['pause'])
    expect(one(el, 'goal-status')!.textContent).toBe('paused')
    expect(disabled(el, 'goal-resume')).toBe(false)
    expect(one(el, 'goal-error')).toBeNull()
  })

  it('shows the engine’s refusal word for word and keeps the goal as it was', async () => {
    const refusal = 'Goal iteration budget is exhausted (20 of 20 iterations used). Set a new explicit goal and budget.'
    const { el, changes } = setup(goal({ status: 'blocked' }), { refuse: refusal })
    click(one(el, 'goal-resume'))
    await settle()
    expect(one(el, 'goal-error')!.textContent).toContain(refusal)
    expect(changes).toEqual([])
    expect(one(el, 'goal-status')!.textContent).toBe('blocked')
  })

  it('hides itself once the goal is cleared', async () => {
    const { el } = setup(goal())
    click(one(el, 'goal-clear'))
    await settle()
    expect(one(el, 'goal-panel')).toBeNull()
  })

  it('is empty without a goal until the form is opened, then sets a goal with a budget', async () => {
    const { el, calls, props } = setup(null)
    expect(one(el, 'goal-panel')).toBeNull()
    props.formOpen = true
    await settle()
    type(one(el, 'goal-objective-input'), '  port the parser  ')
    type(one(el, 'goal-budget-input'), '12')
    click(one(el, 'goal-set'))
    await settle()
    expect(calls).toEqual(['set port the parser 12'])
    expect(one(el, 'goal-status')!.textContent).toBe('active')
    expect(one(el, 'goal-objective-input')).toBeNull() // the form closed
    expect(props.formOpen).toBe(false)
  })

  it('refuses a budget that is not a whole number ≥ 1 before calling the engine', async () => {
    const { el, calls } = setup(null, { formOpen: true })
    type(one(el, 'goal-objective-input'), 'x')
    for (const bad of ['0', '-3', '2.5', 'ten']) {
      type(one(el, 'goal-budget-input'), bad)
      click(one(el, 'goal-set'))
      await settle()
      expect(one(el, 'goal-error')!.textContent).toContain('whole number')
    }
    type(one(el, 'goal-budget-input'), '')
    click(one(el, 'goal-set'))
    await settle()
    expect(calls).toEqual(['set x 0'])
  })

  it('an answer with no goal to show (the window moved to another session) changes nothing', async () => {
    const { el, changes } = setup(goal(), { noGoal: true })
    click(one(el, 'goal-pause'))
    await settle()
    expect(changes).toEqual([])
    expect(one(el, 'goal-status')!.textContent).toBe('active')
    expect(one(el, 'goal-error')).toBeNull()
  })
})
