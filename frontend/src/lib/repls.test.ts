import { describe, expect, it } from 'vitest'
import { fromEvent } from './repls'

describe('fromEvent', () => {
  it('reads the engine entries of a resources event, form and hint from their detail', () => {
    const got = fromEvent({
      event: 'resources',
      seq: 3,
      session_id: 's1',
      resources: [
        { id: 'nrepl:~/p', session: 's1', kind: 'nrepl', language: 'clojure', label: 'nREPL p', dir: '/h/p', port: 7000, status: 'unresponsive',
          log: '/l', created_at: 1, managed: true, detail: { form: '(+ 1 1)', hint: 'repl_stop, then repl_start', port: 7000 } },
        { id: 'py', session: 's1', kind: 'repl', language: 'python', label: 'python3', dir: '/h/p', status: 'up', log: '', created_at: 2, managed: true },
      ],
    })
    expect(got).toEqual([
      { id: 'nrepl:~/p', session: 's1', kind: 'nrepl', language: 'clojure', label: 'nREPL p', dir: '/h/p', pid: 0, port: 7000, status: 'unresponsive',
        log: '/l', created_at: 1, managed: true, form: '(+ 1 1)', hint: 'repl_stop, then repl_start' },
      { id: 'py', session: 's1', kind: 'repl', language: 'python', label: 'python3', dir: '/h/p', pid: 0, port: 0, status: 'up', log: '', created_at: 2, managed: true },
    ])
  })

  it('is null for other events', () => {
    expect(fromEvent({ event: 'turn-end', seq: 1, session_id: 's1' })).toBeNull()
  })
})
