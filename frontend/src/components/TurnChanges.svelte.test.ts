import { afterEach, describe, expect, it } from 'vitest'
import TurnChanges from './TurnChanges.svelte'
import { all, cleanup, click, one, render, settle } from './testkit'
import type { ChangesApi, TurnDiff, UndoOutcome } from '../lib/changes'

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
