import { describe, expect, it } from 'vitest'
import { markSeen, nextStates } from './sessionstate'
import { engineEvent } from './testevents'

const start = (seq: number, sid: string) => engineEvent('turn-start', { seq, session_id: sid, turn: 1, request: 'r' })
const end = (seq: number, sid: string, status: string) => engineEvent('turn-end', { seq, session_id: sid, turn: 1, status })
const ask = (seq: number, sid: string, state: string) => engineEvent('approval', { seq, session_id: sid, id: 'q', state })
const never = () => false

describe('session states in the sidebar', () => {
  it('follow every session: running, waiting for an answer, then unread or failed', () => {
    let s = nextStates({}, [start(1, 'a'), start(2, 'b')], never)
    expect(s).toEqual({ a: 'running', b: 'running' })
    s = nextStates(s, [ask(3, 'a', 'asked')], never)
    expect(s.a).toBe('waiting')
    s = nextStates(s, [ask(4, 'a', 'answered'), end(5, 'a', 'done'), end(6, 'b', 'error')], never)
    expect(s).toEqual({ a: 'unread', b: 'failed' })
    s = nextStates(s, [end(7, 'b', 'halted')], never)
    expect(s.b).toBe('unread')
  })

  it('leave no dot for a cancelled turn or one the person watched end', () => {
    let s = nextStates({}, [start(1, 'a'), start(2, 'b')], never)
    s = nextStates(s, [end(3, 'a', 'cancelled'), end(4, 'b', 'done')], (id) => id === 'b')
    expect(s).toEqual({})
  })

  it('are read when the session is opened, except one still running', () => {
    const s = { a: 'unread', b: 'failed', c: 'running' } as const
    expect(markSeen(markSeen(markSeen(s, 'a'), 'b'), 'c')).toEqual({ c: 'running' })
  })

  it('keep the same object when nothing changed (no redraw)', () => {
    const s = nextStates({}, [start(1, 'a')], never)
    expect(nextStates(s, [start(2, 'a'), engineEvent('queue', { seq: 3, session_id: 'a', queue: null })], never)).toBe(s)
    expect(markSeen(s, 'a')).toBe(s)
  })
})
