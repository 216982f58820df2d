import { afterEach, describe, expect, it } from 'vitest'
import Sidebar from './Sidebar.svelte'
import { all, cleanup, click, one, press, render, settle, type } from './testkit'
import type { SearchHit, Session } from '../lib/types'
import type { SessionState } from '../lib/sessionstate'

afterEach(cleanup)

const s = (id: string, workspace: string, updated: string, title = id): Session => ({ id, workspace, title, turns: 2, created: updated, updated })
const sessions = [
  s('a', '/src/alpha', '2026-01-01T00:00:00Z', 'Old alpha'),
  s('b', '/src/beta', '2026-01-05T00:00:00Z', 'Beta work'),
  s('c', '/src/alpha', '2026-01-03T00:00:00Z', 'New alpha'),
]

function setup(hits: SearchHit[] = []) {
  const calls: string[] = []
  const el = render(Sidebar, {
    sessions,
    current: 'c',
    workspace: '/src/alpha',
    error: '',
    onselect: (x: Session) => calls.push('select ' + x.id),
    onnew: () => calls.push('new'),
    onrename: async (id: string, title: string) => {
      calls.push(`rename ${id} ${title}`)
    },
    ondelete: async (id: string) => {
      calls.push('delete ' + id)
    },
    search: async (q: string) => {
      calls.push('search ' + q)
      return hits
    },
    onhit: (h: SearchHit) => calls.push('hit ' + h.session_id),
    debounce: 0,
  })
  return { el, calls }
}

describe('Sidebar', () => {
  it('groups sessions by workspace, the open one first, newest first', () => {
    const { el } = setup()
    const groups = all(el, 'session-group')
    expect(groups.map((g) => g.dataset.workspace)).toEqual(['/src/alpha', '/src/beta'])
    expect(all(groups[0], 'session-item').map((i) => i.dataset.sessionId)).toEqual(['c', 'a'])
    expect(groups[0].querySelector('h4')!.textContent).toBe('alpha')
    const current = el.querySelectorAll('[aria-current="true"]')
    expect([...current].map((x) => (x as HTMLElement).dataset.sessionId)).toEqual(['c'])
  })

  it('searches requests and answers and shows hits with their snippets', async () => {
    const { el, calls } = setup([{ session_id: 'b', workspace: '/src/beta', title: 'Beta work', turn: 3, snippet: 'make the «tests» pass' }])
    type(one<HTMLInputElement>(el, 'session-search'), 'tests')
    await settle()
    expect(calls).toEqual(['search tests'])
    const hit = one(el, 'search-hit')!
    expect(hit.querySelector('mark')!.textContent).toBe('tests')
    expect(hit.textContent).toContain('beta · turn 3')
    expect(all(el, 'session-item')).toHaveLength(0)
    click(hit)
    expect(calls).toContain('hit b')
    // Opening a hit clears the search: the sessions come back.
    expect(one<HTMLInputElement>(el, 'session-search')!.value).toBe('')
    expect(all(el, 'session-item')).toHaveLength(3)
    // Esc clears a search too.
    type(one<HTMLInputElement>(el, 'session-search'), 'tests')
    await settle()
    expect(all(el, 'session-item')).toHaveLength(0)
    press(one(el, 'session-search'), 'Escape')
    expect(all(el, 'session-item')).toHaveLength(3)
  })

  it('shows a Markdown snippet as plain text with the match highlighted', async () => {
    const { el } = setup([
      { session_id: 'b', workspace: '/src/beta', title: 'Beta', turn: 2, snippet: '## Result\n- run **`go «test» ./...`** in [the repo](https://x)' },
    ])
    type(one<HTMLInputElement>(el, 'session-search'), 'test')
    await settle()
    const snippet = one(el, 'search-hit')!.querySelector('.snippet')!
    expect(snippet.textContent).toBe('Result run go test ./... in the repo')
    expect(snippet.querySelector('mark')!.textContent).toBe('test')
    expect(snippet.textContent).not.toMatch(/[`*#\[\]]/)
  })

  it('says when nothing matches', async () => {
    const { el } = setup([])
    type(one<HTMLInputElement>(el, 'session-search'), 'zebra')
    await settle()
    expect(el.textContent).toContain('No request or answer matches “zebra”')
  })

  it('renames inline', async () => {
    const { el, calls } = setup()
    click(all(el, 'session-rename')[0])
    const field = one<HTMLInputElement>(el, 'session-rename-input')!
    expect(field.value).toBe('New alpha')
    type(field, 'Renamed')
    press(field, 'Enter')
    await settle()
    expect(calls).toEqual(['rename c Renamed'])
  })

  it('deletes only after confirmation', async () => {
    const { el, calls } = setup()
    click(all(el, 'session-delete')[1])
    expect(document.body.querySelector('[role="dialog"]')!.textContent).toContain('“Old alpha” and its 2 turns will be removed')
    click(one(document.body, 'confirm-cancel'))
    expect(calls).toEqual([])
    expect(one(document.body, 'confirm-ok')).toBeNull()
    click(all(el, 'session-delete')[1])
    click(one(document.body, 'confirm-ok'))
    await settle()
    expect(calls).toEqual(['delete a'])
  })

  it('selects a session and starts a new one', () => {
    const { el, calls } = setup()
    click(all(el, 'session-item')[2])
    click(one(el, 'session-new'))
    expect(calls).toEqual(['select b', 'new'])
  })
})

/** The sidebar with no-op handlers and the given props. */
function plain(more: Record<string, unknown>) {
  return render(Sidebar, {
    sessions,
    current: 'c',
    workspace: '/src/alpha',
    error: '',
    onselect: () => {},
    onnew: () => {},
    onrename: async () => {},
    ondelete: async () => {},
    search: async () => [],
    onhit: () => {},
    ...more,
  })
}

describe('session state dots', () => {
  it('show each session’s state beside its title, with what it means', () => {
    const el = plain({ states: { a: 'waiting', b: 'failed' } as Record<string, SessionState> })
    const dots = all(el, 'session-state')
    expect(dots.map((d) => [d.closest('[data-session-id]')!.getAttribute('data-session-id'), d.getAttribute('data-state'), d.getAttribute('title')])).toEqual([
      ['a', 'waiting', 'Waiting for your answer'],
      ['b', 'failed', 'Its last turn failed'],
    ])
  })
})

describe('a forked session', () => {
  it('names the session it was forked from', () => {
    const el = plain({ sessions: [...sessions, { ...s('f', '/src/alpha', '2026-01-06T00:00:00Z', 'Old alpha (fork at turn 1)'), fork_of: 'a', fork_turns: 1 }] })
    const links = all(el, 'session-fork-of')
    expect(links.map((l) => l.textContent!.replace(/\s+/g, ' ').trim())).toEqual(['↳ fork of Old alpha ·'])
    expect(links[0].getAttribute('title')).toBe('Forked from this session after its turn 1')
  })
})
