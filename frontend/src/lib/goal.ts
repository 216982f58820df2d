// The goal panel's state: which goal to show when answers and events arrive
// in any order, what each status allows, and labels.
import type { EngineEvent } from './events.gen'
import type { Goal, GoalView } from './types'

export type GoalAction = 'pause' | 'resume' | 'cancel' | 'clear'

/** A goal worth showing: one exists and it was not cleared. */
export function shown(g: GoalView | null): g is GoalView {
  return !!g && !!g.status && g.status !== 'cleared'
}

/** The budget is set and used up (resume is refused then). */
export function budgetSpent(g: GoalView): boolean {
  return g.iteration_budget !== null && g.iterations_used >= g.iteration_budget
}

/** Which controls the goal rules allow in g's status (backend/goals Control). */
export function allowed(g: GoalView | null): Record<GoalAction, boolean> {
  if (!shown(g)) return { pause: false, resume: false, cancel: false, clear: false }
  return {
    pause: g.status === 'active',
    resume: (g.status === 'paused' || g.status === 'blocked') && !budgetSpent(g),
    cancel: g.status !== 'cancelled',
    clear: true,
  }
}

/** The footer's goal (app.Goal, budget 0 = none) in the panel's shape. */
export function fromStatus(sessionId: string, g: Goal): GoalView {
  return {
    id: g.id ?? '',
    session_id: sessionId,
    objective: g.objective,
    status: g.status,
    iteration_budget: g.iteration_budget > 0 ? g.iteration_budget : null,
    iterations_used: g.iterations_used,
    tokens_used: g.tokens_used,
    time_used_ms: g.time_used_ms ?? 0,
    version: 0,
    revision: g.revision ?? 0,
    created_at: '',
    updated_at: '',
  }
}

/** The goal a `goal` event carries (its GoalState) in the panel's shape, or null for any other event. */
export function fromEvent(e: EngineEvent): GoalView | null {
  if (e.event !== 'goal') return null
  const g = e.goal
  return {
    id: g.id,
    session_id: g.session_id,
    objective: g.objective,
    status: g.status,
    iteration_budget: g.iteration_budget ?? null,
    iterations_used: g.iterations_used,
    tokens_used: g.tokens_used,
    time_used_ms: g.time_used_ms,
    version: g.version,
    revision: g.revision,
    created_at: g.created_at,
    updated_at: g.updated_at,
  }
}

/**
 * Keeps one session's goal: the highest revision seen wins, whether it came
 * from an event, a Status answer or a control's answer. "No goal" answers
 * carry no revision, so one counts only when nothing newer arrived since the
 * call that brought it started (begin/absent).
 */
export class GoalTracker {
  sessionId = ''
  goal: GoalView | null = null
  private epoch = 0

  /** Forgets the goal when the open session changes. */
  open(sessionId: string) {
    if (sessionId === this.sessionId) return
    this.sessionId = sessionId
    this.goal = null
    this.epoch++
  }

  /** Offers a goal; returns whether the shown goal changed. */
  offer(g: GoalView | null | undefined): boolean {
    if (!g || !g.status) return false
    if (g.session_id && this.sessionId && g.session_id !== this.sessionId) return false
    if (this.goal && g.revision < this.goal.revision) return false
    if (this.goal && g.revision === this.goal.revision && g.id === this.goal.id && g.status === this.goal.status) {
      // The same write again (a Status answer after its event): keep the figures fresher of the two.
      if (g.time_used_ms <= this.goal.time_used_ms) return false
    }
    this.goal = { ...g }
    this.epoch++
    return true
  }

  /** Marks the start of a call whose answer may be "no goal". */
  begin(): number {
    return this.epoch
  }

  /** A call begun at token found no goal; returns whether the shown goal changed. */
  absent(token: number): boolean {
    if (token !== this.epoch || !this.goal) return false
    this.goal = null
    this.epoch++
    return true
  }
}

/** 0 → "0s", 65_000 → "1m 5s", 3_725_000 → "1h 2m". */
export function durationLabel(ms: number): string {
  const s = Math.max(0, Math.floor((ms || 0) / 1000))
  if (s < 60) return `${s}s`
  const m = Math.floor(s / 60)
  if (m < 60) return `${m}m ${s % 60}s`
  return `${Math.floor(m / 60)}h ${m % 60}m`
}

/** "3 of 20 iterations" or "3 iterations (no budget)"; percent is null without a budget. */
export function iterationsLabel(g: GoalView): { text: string; percent: number | null } {
  const used = g.iterations_used
  const unit = (n: number) => (n === 1 ? 'iteration' : 'iterations')
  if (g.iteration_budget === null) return { text: `${used} ${unit(used)} (no budget)`, percent: null }
  const b = g.iteration_budget
  return { text: `${used} of ${b} ${unit(b)}`, percent: Math.min(100, Math.round((used / Math.max(1, b)) * 100)) }
}

/**
 * A goal status in the words a person reads everywhere: the goal panel's
 * chip, the footer's badge, and `/goal` (backend/goals StatusLabel maps
 * the same way).
 */
export function statusLabel(status: string): string {
  if (status === 'budget_limited') return 'budget spent'
  return status.replace(/_/g, ' ')
}

/** Parses the budget field: "" → 0 (none), a whole number ≥ 1 → it, else an error sentence. */
export function parseBudget(text: string): number | string {
  const t = text.trim()
  if (t === '') return 0
  if (!/^\d+$/.test(t) || Number(t) < 1 || !Number.isSafeInteger(Number(t)))
    return 'The budget must be a whole number of iterations, at least 1 (or empty for none).'
  return Number(t)
}
