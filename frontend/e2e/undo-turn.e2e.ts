// A turn's checkpoint in the window (issue 18): the turn card says what the
// turn changed ("N files changed +A −D"), opens its per-file diff, and Undo
// turn puts the files back; a file the person changed since the turn is
// named and the person chooses to undo the rest. The undo is a turn of its
// own in the transcript, which offers to redo.
import fs from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { scenario, until } from './harness'

scenario('undo-turn', async (h) => {
  await h.start({
    files: { 'notes.txt': 'one\ntwo\n', 'old.txt': 'bye\n' },
    script: [
      { code: 'patch("notes.txt", old="two", new="TWO")\nwrite("new.txt", "made\\n")\nshell("rm old.txt")' },
      { content: ['Edited.'] },
    ],
  })
  const ws = h.workspace
  await h.send('edit the notes')
  await h.turnStatus(1, 'done')
  const card = h.page.locator('[data-testid="turn"][data-turn="1"]')
  const changes = card.locator('[data-testid="turn-changes"]')
  await until('the turn card to say what changed', async () => (await changes.count()) === 1 && (await changes.innerText()) === '3 files changed +2 −2')
  await changes.click()
  const files = card.locator('[data-testid="turn-diff-file"]')
  await until('the diff to show three files', async () => (await files.count()) === 3)
  expect(await files.evaluateAll((els) => els.map((e) => `${(e as HTMLElement).dataset.status} ${(e as HTMLElement).dataset.path}`))).toEqual([
    'added new.txt',
    'modified notes.txt',
    'deleted old.txt',
  ])
  expect(await card.locator('[data-testid="turn-diff-file"][data-path="notes.txt"] .line.add').innerText()).toBe('+TWO')

  // The person edits new.txt after the turn: undo asks.
  fs.writeFileSync(path.join(ws, 'new.txt'), 'mine\n')
  await card.locator('[data-testid="turn-undo"]').click()
  const conflict = card.locator('[data-testid="turn-undo-conflict-file"]')
  await until('undo to name the changed file', async () => (await conflict.count()) === 1)
  expect(await conflict.innerText()).toBe('new.txt')
  expect(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('one\nTWO\n')
  await card.locator('[data-testid="turn-undo-rest"]').click()

  // The rest is undone, the person's file kept, and the undo is turn 2.
  await until('old.txt to be back', async () => fs.existsSync(path.join(ws, 'old.txt')))
  expect(fs.readFileSync(path.join(ws, 'notes.txt'), 'utf8')).toBe('one\ntwo\n')
  expect(fs.readFileSync(path.join(ws, 'new.txt'), 'utf8')).toBe('mine\n')
  const undo = h.page.locator('[data-testid="turn"][data-turn="2"]')
  await until('the undo turn in the transcript', async () => (await undo.count()) === 1 && (await undo.locator('[data-testid="turn-request"]').innerText()) === 'Undo turn 1')
  await until('the undo turn to offer redo', async () => (await undo.locator('[data-testid="turn-undo"]').count()) === 1)
  expect(await undo.locator('[data-testid="turn-undo"]').innerText()).toBe('Redo turn 1')
  await until('turn 1 to say it was undone', async () => (await card.locator('[data-testid="turn-undone-by"]').count()) === 1)
  await h.assertHealthy()
})
