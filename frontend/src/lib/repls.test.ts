import { describe, expect, it } from 'vitest'
import { fromEvent, hintFor } from './repls'
import { engineEvent } from './testevents'

describe('fromEvent', () => {
  it('reads the engine entries of a resources event, form and hint from their detail', () => {
    const got = fromEvent(engineEvent('resources', {
      seq: 3,
      session_id: 's1',
      resources: [
        { id: 'nrepl:~/p', session: 's1', kind: 'nrepl', language: 'clojure', label: 'nREPL p', dir: '/h/p', port: 7000, status: 'unresponsive',
          log: '/l', created_at: 1, managed: true, detail: { form: '(+ 1 1)', hint: 'repl_stop, then repl_start', port: 7000 } },
        { id: 'py', session: 's1', kind: 'repl', language: 'python', label: 'python3', dir: '/h/p', status: 'up', created_at: 2, managed: true },
      ],
    }))
    expect(got).toEqual([
      { id: 'nrepl:~/p', session: 's1', kind: 'nrepl', language: 'clojure', label: 'nREPL p', dir: '/h/p', pid: 0, port: 7000, status: 'unresponsive',
        log: '/l', created_at: 1, managed: true, form: '(+ 1 1)', hint: 'repl_stop, then repl_start' },
      { id: 'py', session: 's1', kind: 'repl', language: 'python', label: 'python3', dir: '/h/p', pid: 0, port: 0, status: 'up', log: '', created_at: 2, managed: true },
    ])
  })

  it('is an empty list when the engine sends null (no REPLs), and null for other events', () => {
    expect(fromEvent(engineEvent('resources', { seq: 4, session_id: 's1', resources: null }))).toEqual([])
    expect(fromEvent(engineEvent('turn-end', { seq: 1, session_id: 's1' }))).toBeNull()
  })
})

describe('hintFor', () => {
  const base = { id: 'x', session: 's', kind: 'repl', language: 'python', label: 'p', dir: '/p', pid: 1, port: 0, log: '', created_at: 1, managed: true }
  it('is empty while the REPL is up, whatever hint it carries', () => {
    expect(hintFor({ ...base, status: 'up', hint: 'old' })).toEqual({ form: '', text: '' })
  })
  it("uses the pack's hint and shows the form only when the hint does not name it", () => {
    expect(hintFor({ ...base, status: 'unresponsive', form: '(+ 1 1)', hint: 'stop it' })).toEqual({ form: '(+ 1 1)', text: 'stop it' })
    expect(hintFor({ ...base, status: 'unresponsive', form: '(+ 1 1)', hint: '(+ 1 1) got no answer' })).toEqual({ form: '', text: '(+ 1 1) got no answer' })
  })
  it('says something for each bad status without a hint', () => {
    expect(hintFor({ ...base, status: 'unresponsive' }).text).toContain('did not answer')
    expect(hintFor({ ...base, status: 'failed' }).text).toContain('exited')
    expect(hintFor({ ...base, status: 'failed', managed: false }).text).toContain('does not answer')
  })
})
