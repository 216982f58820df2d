import { afterEach, describe, expect, it } from 'vitest'
import SessionChanges from './SessionChanges.svelte'
import TranscriptPane from './TranscriptPane.svelte'
import { all, cleanup, click, one, press, render, settle } from './testkit'
import type { SessionChangesApi } from '../lib/changes'
import { netLabel, turnsLabel } from '../lib/changes'
import { fromSnapshot } from '../lib/transcript'
import type { Transcript } from '../lib/types'

afterEach(cleanup)

function fakeApi() {
  const calls: string[] = []
  const api: SessionChangesApi = {
    sessionChanges: async (sid) => {
      calls.push(`changes ${sid}`)
      return {
        session_id: sid,
        from: 1,
        to: 3,
        added: 3,
        deleted: 1,
        files: [
          { path: 'a.txt', status: 'added', turns: [1], added: 2, deleted: 0 },
          { path: 'b.txt', status: 'modified', turns: [1, 2, 3], added: 1, deleted: 1 },
          { path: 'c.txt', status: 'unchanged', turns: [2, 3], added: 0, deleted: 0 },
        ],
      }
    },
    sessionFileDiff: async (sid, path) => {
      calls.push(`diff ${sid} ${path}`)
      return path === 'c.txt'
        ? { path, status: 'unchanged', added: 0, deleted: 0 }
        : { path, status: 'modified', added: 1, deleted: 1, patch: 'diff --git a/b.txt b/b.txt\n@@ -1 +1 @@\n-one\n+ONE\n' }
    },
  }
  return { api, calls }
}

describe('SessionChanges', () => {
  it('lists every file the session touched with its turns and net change, and opens a net diff', async () => {
    const { api, calls } = fakeApi()
    let closed = 0
    const el = render(SessionChanges, { sessionId: 's1', onclose: () => closed++, api })
    await settle()
    expect(one(el, 'session-changes-summary')?.textContent).toBe('3 files · net +3 −1 · turns 1–3')
    const rows = all(el, 'session-changes-file')
    expect(rows.map((r) => `${r.dataset.status} ${r.dataset.path}`)).toEqual(['added a.txt', 'modified b.txt', 'unchanged c.txt'])
    expect(all(el, 'session-changes-turns').map((t) => t.textContent?.trim())).toEqual(['turn 1', 'turns 1, 2 and 3', 'turns 2 and 3'])
    expect(all(el, 'session-changes-net').map((t) => t.textContent)).toEqual(['+2 −0', '+1 −1', 'no net change'])
    click(one(rows[1], 'session-changes-open'))
    await settle()
    expect([...rows[1].querySelectorAll('.line.add')].map((l) => l.textContent)).toEqual(['+ONE'])
    click(one(rows[2], 'session-changes-open'))
    await settle()
    expect(one(rows[2], 'session-changes-diff')?.textContent).toBe('The session’s turns put this file back as it was.')
    expect(one(rows[1], 'session-changes-diff')).toBeNull() // one net diff open at a time
    expect(calls).toEqual(['changes s1', 'diff s1 b.txt', 'diff s1 c.txt'])
    press(one(el, 'session-changes'), 'Escape')
    click(one(el, 'session-changes-close'))
    expect(closed).toBe(2)
  })

  it('says when no turn changed files', async () => {
    const api: SessionChangesApi = {
      sessionChanges: async (sid) => ({ session_id: sid, files: [], added: 0, deleted: 0, from: 0, to: 0 }),
      sessionFileDiff: async () => {
        throw new Error('unused')
      },
    }
    const el = render(SessionChanges, { sessionId: 's1', onclose: () => {}, api })
    await settle()
    expect(one(el, 'session-changes-empty')).not.toBeNull()
  })

  it('labels turns and net figures', () => {
    expect(turnsLabel([4])).toBe('turn 4')
    expect(turnsLabel([1, 5])).toBe('turns 1 and 5')
    expect(netLabel({ path: 'x', status: 'too-large', turns: [1], added: 0, deleted: 0 })).toBe('too large to keep')
    expect(netLabel({ path: 'x', status: 'binary', binary: true, turns: [1], added: 0, deleted: 0 })).toBe('binary')
  })

  it('is offered by the transcript pane once a turn changed files', () => {
    const snap = (files: number) =>
      ({
        session: { id: 's1', title: 't', workspace: '/w' },
        running: false,
        seq: 0,
        turns: [{ position: 1, request: 'r', status: 'done', channel: 'desktop', iterations: [], changes: { files, added: 1, deleted: 0 } }],
      }) as unknown as Transcript
    const none = render(TranscriptPane, { view: fromSnapshot(snap(0)), workspace: '/w', onpick: () => {} })
    expect(one(none, 'session-changes-button')).toBeNull()
    cleanup()
    const el = render(TranscriptPane, { view: fromSnapshot(snap(2)), workspace: '/w', onpick: () => {} })
    click(one(el, 'session-changes-button'))
    expect(one(el, 'session-changes')).not.toBeNull()
    click(one(el, 'session-changes-button'))
    expect(one(el, 'session-changes')).toBeNull()
  })
})
