import { afterEach, describe, expect, it } from 'vitest'
import TurnChanges from './TurnChanges.svelte'
import { all, cleanup, click, one, press, render, settle, type } from './testkit'
import type { ChangesApi, RevertOutcome, TurnDiff, UndoOutcome } from '../lib/changes'

afterEach(cleanup)

const diff: TurnDiff = {
  session_id: 's1',
  turn: 2,
  added: 1,
  deleted: 1,
  files: [
    { path: 'a.txt', status: 'modified', added: 1, deleted: 1, patch: 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-two\n+TWO\n' },
    { path: 'logo.png', status: 'added', binary: true, added: 0, deleted: 0, patch: 'Binary files differ\n' },
  ],
}

function fakeApi(answers: UndoOutcome[]) {
  const calls: string[] = []
  const api: ChangesApi = {
    turnDiff: async (sid, turn) => {
      calls.push(`diff ${sid} ${turn}`)
      return diff
    },
    undoTurn: async (sid, turn, mode) => {
      calls.push(`undo ${sid} ${turn} ${mode || 'refuse'}`)
      return answers.shift()!
    },
  }
  return { api, calls }
}

describe('TurnChanges', () => {
  it('opens the turn’s diff from "N files changed +A −D"', async () => {
    const { api, calls } = fakeApi([])
    const el = render(TurnChanges, { sessionId: 's1', position: 2, changes: { files: 2, added: 1, deleted: 1 }, api })
    expect(one(el, 'turn-changes')?.textContent).toBe('2 files changed +1 −1')
    expect(one(el, 'turn-diff')).toBeNull()
    click(one(el, 'turn-changes'))
    await settle()
    expect(calls).toEqual(['diff s1 2'])
    const files = all(el, 'turn-diff-file')
    expect(files.map((f) => f.dataset.path)).toEqual(['a.txt', 'logo.png'])
    expect([...files[0].querySelectorAll('.line.add')].map((l) => l.textContent)).toEqual(['+TWO'])
    expect([...files[0].querySelectorAll('.line.del')].map((l) => l.textContent)).toEqual(['-two'])
    expect(files[1].querySelector('pre')).toBeNull() // a binary file is named, not printed
  })

  it('asks when files changed since the turn: undo the rest', async () => {
    const { api, calls } = fakeApi([
      { undo: null, conflicts: ['a.txt'] },
      { undo: { session_id: 's1', turn: 2, undo_turn: 3, restored: ['b.txt'], removed: [], skipped: ['a.txt'] }, conflicts: [] },
    ])
    const el = render(TurnChanges, { sessionId: 's1', position: 2, changes: { files: 2, added: 1, deleted: 1 }, api })
    click(one(el, 'turn-undo'))
    await settle()
    expect(all(el, 'turn-undo-conflict-file').map((f) => f.textContent)).toEqual(['a.txt'])
    click(one(el, 'turn-undo-rest'))
    await settle()
    expect(calls).toEqual(['undo s1 2 refuse', 'undo s1 2 rest'])
    expect(one(el, 'turn-undo-conflict')).toBeNull()
    expect(one(el, 'turn-undo-done')?.textContent).toBe('Undone as turn 3.')
    expect(one(el, 'turn-undo')).toBeNull()
  })

  it('cancel undoes nothing; an undone turn offers no undo; an undo turn offers redo', async () => {
    const { api, calls } = fakeApi([{ undo: null, conflicts: ['a.txt'] }])
    const el = render(TurnChanges, { sessionId: 's1', position: 2, changes: { files: 1, added: 0, deleted: 0 }, api })
    click(one(el, 'turn-undo'))
    await settle()
    click(one(el, 'turn-undo-cancel'))
    expect(one(el, 'turn-undo-conflict')).toBeNull()
    expect(calls).toEqual(['undo s1 2 refuse'])
    cleanup()
    const undone = render(TurnChanges, { sessionId: 's1', position: 2, changes: { files: 1, added: 0, deleted: 0, undone_by: 3 }, api })
    expect(one(undone, 'turn-undo')).toBeNull()
    expect(one(undone, 'turn-undone-by')?.textContent).toBe('undone by turn 3')
    const undo = render(TurnChanges, { sessionId: 's1', position: 3, changes: { files: 1, added: 0, deleted: 0, undo_of: 2 }, api })
    expect(one(undo, 'turn-undo')?.textContent).toBe('Redo turn 2')
  })
})

describe('TurnChanges: review in place', () => {
  const twoHunks: TurnDiff = {
    session_id: 's1',
    turn: 2,
    added: 3,
    deleted: 1,
    files: [
      {
        path: 'f.txt',
        status: 'modified',
        added: 2,
        deleted: 1,
        patch: 'diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n@@ -20,1 +20,2 @@\n twenty\n+more\n',
      },
      { path: 'new.txt', status: 'added', added: 1, deleted: 0, patch: 'diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+made\n' },
    ],
  }

  function reviewApi(reverts: RevertOutcome[]) {
    const calls: string[] = []
    const api: ChangesApi = {
      turnDiff: async () => twoHunks,
      undoTurn: async () => ({ undo: null, conflicts: [] }),
      revertChange: async (sid, turn, path, hunk, mode) => {
        calls.push(`revert ${sid} ${turn} ${path} ${hunk} ${mode || 'refuse'}`)
        return reverts.shift()!
      },
      send: async (sid, text) => {
        calls.push(`send ${sid} ${text}`)
      },
    }
    return { api, calls }
  }

  async function opened(api: ChangesApi) {
    const el = render(TurnChanges, { sessionId: 's1', position: 2, changes: { files: 2, added: 3, deleted: 1 }, api })
    click(one(el, 'turn-changes'))
    await settle()
    return el
  }

  const done = (undoTurn: number): RevertOutcome => ({ revert: { session_id: 's1', turn: 2, undo_turn: undoTurn, restored: ['f.txt'], removed: [] }, conflicts: [] })

  it('reverts one hunk, then a file; a created file offers no hunk', async () => {
    const { api, calls } = reviewApi([done(3), { revert: { session_id: 's1', turn: 2, undo_turn: 0, restored: [], removed: [], held: true }, conflicts: [] }])
    const el = await opened(api)
    const [f, created] = all(el, 'turn-diff-file')
    expect(all(f, 'turn-diff-revert-hunk').map((b) => b.dataset.hunk)).toEqual(['0', '1'])
    expect(all(created, 'turn-diff-revert-hunk')).toEqual([])
    click(all(f, 'turn-diff-revert-hunk')[1])
    await settle()
    expect(one(f, 'turn-diff-reverted')?.textContent).toBe('Hunk 2 reverted as turn 3.')
    click(one(created, 'turn-diff-revert-file'))
    await settle()
    expect(calls).toEqual(['revert s1 2 f.txt 1 refuse', 'revert s1 2 new.txt -1 refuse'])
    expect(one(created, 'turn-diff-reverted')?.textContent).toBe('File: held — the revert is applied when the running turn ends.')
  })

  it('asks before overwriting a file changed since the turn; cancel reverts nothing', async () => {
    const { api, calls } = reviewApi([{ revert: null, conflicts: ['f.txt'] }, { revert: null, conflicts: ['f.txt'] }, done(4)])
    const el = await opened(api)
    const f = all(el, 'turn-diff-file')[0]
    click(one(f, 'turn-diff-revert-file'))
    await settle()
    expect(one(f, 'turn-revert-conflict')?.textContent).toContain('f.txt changed since turn 2; nothing was reverted')
    click(one(f, 'turn-revert-cancel'))
    expect(one(f, 'turn-revert-conflict')).toBeNull()
    click(all(f, 'turn-diff-revert-hunk')[0])
    await settle()
    expect(one(f, 'turn-revert-conflict')?.textContent).toContain('The lines of hunk 1 changed since turn 2')
    click(one(f, 'turn-revert-overwrite'))
    await settle()
    expect(calls).toEqual(['revert s1 2 f.txt -1 refuse', 'revert s1 2 f.txt 0 refuse', 'revert s1 2 f.txt -1 overwrite'])
    expect(one(f, 'turn-revert-conflict')).toBeNull()
    expect(one(f, 'turn-diff-reverted')?.textContent).toBe('File reverted as turn 4.')
  })

  it('comments on diff lines and sends them with path:line', async () => {
    const { api, calls } = reviewApi([])
    const el = await opened(api)
    const f = all(el, 'turn-diff-file')[0]
    const lines = all(f, 'turn-diff-line')
    expect(lines.map((l) => `${l.dataset.side}:${l.dataset.line}`)).toEqual(['new:1', 'old:2', 'new:2', 'new:20', 'new:21'])
    click(lines[2])
    type(one<HTMLTextAreaElement>(f, 'turn-diff-comment-text'), 'Say why it is upper case')
    click(one(f, 'turn-diff-comment-add'))
    press(lines[1], 'Enter')
    type(one<HTMLTextAreaElement>(f, 'turn-diff-comment-text'), 'keep this line')
    press(one(f, 'turn-diff-comment-text'), 'Enter', { ctrlKey: true })
    expect(all(f, 'turn-diff-comment').map((c) => c.querySelector('.ref')?.textContent)).toEqual(['f.txt:2 (a deleted line, as before the turn)', 'f.txt:2'])
    // One removed, one added back; the draft survives closing the diff.
    click(one(f, 'turn-diff-comment-remove'))
    expect(all(el, 'turn-diff-comment')).toHaveLength(1)
    cleanup()
    const again = await opened(api)
    expect(one(again, 'turn-diff-send-comments')?.textContent).toBe('Send 1 comment')
    click(one(again, 'turn-diff-send-comments'))
    await settle()
    expect(calls).toEqual(['send s1 Review comments on the changes of turn 2:\n\nf.txt:2 — `TWO`\nSay why it is upper case'])
    expect(one(again, 'turn-diff-send-comments')).toBeNull()
    expect(one(again, 'turn-diff-comments-sent')?.textContent).toBe('Sent 1 comment as your next message.')
  })
})
