import { describe, expect, it } from 'vitest'
import { durationLabel, fromEvent, fromStatus, GoalTracker, parseBudget } from './goal'
import type { GoalView } from './types'
import { engineEvent } from './testevents'

function g(revision: number, status = 'active', over: Partial<GoalView> = {}): GoalView {
  return {
    id: 'g1', session_id: 's1', objective: 'o', status, iteration_budget: null, iterations_used: revision,
    tokens_used: 0, time_used_ms: 0, version: 1, revision, created_at: '', updated_at: '', ...over,
  }
}

describe('GoalTracker', () => {
  it('keeps the highest revision whatever order goals arrive in', () => {
    const t = new GoalTracker()
    t.open('s1')
    expect(t.offer(g(3, 'paused'))).toBe(true)
    expect(t.offer(g(2, 'active'))).toBe(false) // an older event delivered late
    expect(t.goal?.status).toBe('paused')
    expect(t.offer(g(4, 'active'))).toBe(true)
    expect(t.offer(g(1, 'cancelled'))).toBe(false)
    expect(t.goal?.revision).toBe(4)
  })

  it('ignores another session’s goal and forgets the goal when the session changes', () => {
    const t = new GoalTracker()
    t.open('s1')
    expect(t.offer(g(5, 'active', { session_id: 's2' }))).toBe(false)
    t.offer(g(1))
    t.open('s2')
    expect(t.goal).toBeNull()
    expect(t.offer(g(1, 'paused', { session_id: 's2' }))).toBe(true)
  })

  it('takes "no goal" only when nothing newer arrived since the call began', () => {
    const t = new GoalTracker()
    t.open('s1')
    t.offer(g(1))
    const stale = t.begin()
    t.offer(g(2, 'paused')) // an event while the call was in flight
    expect(t.absent(stale)).toBe(false)
    expect(t.goal?.revision).toBe(2)
    expect(t.absent(t.begin())).toBe(true)
    expect(t.goal).toBeNull()
  })

  it('keeps the fresher figures of the same write (Status counts active time up to now)', () => {
    const t = new GoalTracker()
    t.open('s1')
    t.offer(g(2, 'active', { time_used_ms: 1000 }))
    expect(t.offer(g(2, 'active', { time_used_ms: 4000 }))).toBe(true)
    expect(t.offer(g(2, 'active', { time_used_ms: 3000 }))).toBe(false)
    expect(t.goal?.time_used_ms).toBe(4000)
  })
})

describe('goal payloads', () => {
  it('reads a goal event and the footer’s goal into one shape', () => {
    const goal = { ...g(3), iteration_budget: 5, active_since: '2026-01-01T00:00:00Z' }
    const ev = engineEvent('goal', { seq: 9, session_id: 's1', revision: 3, goal })
    // The panel's shape: every GoalView key, nothing more.
    expect(fromEvent(ev)).toEqual({ ...g(3), iteration_budget: 5 })
    expect(fromEvent(engineEvent('turn-end', { seq: 1, session_id: 's1' }))).toBeNull()
    const st = fromStatus('s1', { objective: 'o', status: 'paused', iteration_budget: 0, iterations_used: 2, tokens_used: 9, revision: 4 })
    expect(st).toMatchObject({ session_id: 's1', iteration_budget: null, revision: 4, status: 'paused' })
  })

  it('parses budgets and labels durations', () => {
    expect(parseBudget('')).toBe(0)
    expect(parseBudget(' 7 ')).toBe(7)
    expect(typeof parseBudget('0')).toBe('string')
    expect(typeof parseBudget('1e3')).toBe('string')
    expect(durationLabel(59_999)).toBe('59s')
    expect(durationLabel(3_725_000)).toBe('1h 2m')
  })
})
