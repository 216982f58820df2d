import { afterEach, describe, expect, it } from 'vitest'
import ReplPanel from './ReplPanel.svelte'
import { all, cleanup, click, one, render, settle } from './testkit'
import type { Resource } from '../lib/types'

afterEach(cleanup)

function repl(over: Partial<Resource> = {}): Resource {
  return {
    id: 'python-1', session: 's1', kind: 'repl', language: 'python', label: 'python3 (.venv)', dir: '/home/me/proj',
    pid: 4242, port: 0, status: 'up', log: '/l', created_at: Date.now() - 125_000, managed: true, ...over,
  }
}

function setup(repls: Resource[]) {
  const calls: string[] = []
  let log = 'line 1\n'
  const props = $state({
    sessionId: 's1',
    repls,
    pollMs: 20,
    stop: async (_s: string, id: string) => {
      calls.push('stop ' + id)
      return { result: 'stopped', id, message: '' }
    },
    restart: async (_s: string, id: string) => {
      calls.push('restart ' + id)
      throw new Error('python3 not found')
    },
    logs: async (_s: string, id: string, n: number) => {
      calls.push(`logs ${id} ${n}`)
      return log
    },
    onclose: () => calls.push('close'),
  })
  return { el: render(ReplPanel, props), calls, props, append: (s: string) => (log += s) }
}

describe('ReplPanel', () => {
  it('shows why an unresponsive REPL does not answer: the failed form and the hint', () => {
    const { el } = setup([
      repl({ id: 'nrepl:~/proj', language: 'clojure', kind: 'nrepl', status: 'unresponsive', form: '(+ 1 1)', hint: 'repl_stop, then repl_start' }),
      repl({ id: 'python-1', hint: 'never shown while up' }),
    ])
    const hints = all(el, 'repl-hint')
    expect(hints).toHaveLength(1)
    expect(hints[0].textContent!.replace(/\s+/g, ' ').trim()).toBe('(+ 1 1) repl_stop, then repl_start')
  })

  it('does not repeat the form when the hint already names it', () => {
    const { el } = setup([repl({ status: 'unresponsive', form: '(+ 1 1)', hint: '(+ 1 1) got no answer within 2s' })])
    expect(one(el, 'repl-hint')!.textContent!.replace(/\s+/g, ' ').trim()).toBe('(+ 1 1) got no answer within 2s')
  })

  it('shows one row per REPL with language, label, folder, pid and uptime', () => {
    const { el } = setup([repl(), repl({ id: 'node-1', language: 'javascript', pid: 0, port: 7888, status: 'starting' })])
    const rows = all(el, 'repl-row')
    expect(rows.map((r) => [r.dataset.id, r.dataset.status])).toEqual([['python-1', 'up'], ['node-1', 'starting']])
    const t = rows[0].textContent!.replace(/\s+/g, ' ')
    expect(t).toContain('python')
    expect(t).toContain('python3 (.venv)')
    expect(t).toContain('proj · pid 4242')
    expect(t).toContain('up · 2m')
    expect(rows[1].textContent).toContain('port 7888')
  })

  it('stops and restarts through the engine and shows a refusal on the row', async () => {
    const { el, calls } = setup([repl()])
    click(one(el, 'repl-stop'))
    expect(one<HTMLButtonElement>(el, 'repl-restart')!.disabled).toBe(true) // one action at a time
    await settle()
    click(one(el, 'repl-restart'))
    await settle()
    expect(calls).toEqual(['stop python-1', 'restart python-1'])
    expect(one(el, 'repl-row')!.textContent).toContain('python3 not found')
  })

  it('follows the log while the viewer is open and stops polling when closed', async () => {
    const { el, calls, append } = setup([repl()])
    click(one(el, 'repl-logs'))
    await settle()
    expect(one(el, 'repl-log-view')!.textContent).toBe('line 1\n')
    append('line 2\n')
    await new Promise((r) => setTimeout(r, 60))
    await settle()
    expect(one(el, 'repl-log-view')!.textContent).toContain('line 2')
    click(one(el, 'repl-logs'))
    const n = calls.length
    await new Promise((r) => setTimeout(r, 60))
    expect(one(el, 'repl-log-view')).toBeNull()
    expect(calls.length).toBe(n)
  })

  it('turns a REPL that died red with its last log lines', async () => {
    const { el, props, calls } = setup([repl()])
    props.repls = [repl({ status: 'failed' })]
    await settle()
    const row = one(el, 'repl-row')!
    expect(row.dataset.status).toBe('failed')
    expect(row.classList.contains('dead')).toBe(true)
    expect(row.querySelector('.tail')!.textContent).toBe('line 1')
    expect(calls).toContain('logs python-1 8')
  })
})
