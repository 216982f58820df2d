// Review in place (issue 18): from a turn's diff the person reverts one hunk
// (the file keeps the turn's other hunk, on disk), then comments on a diff
// line and sends the comment: it reaches the model as the person's next
// message with its path:line reference, the transcript shows it as their
// message, and the model's recap says which hunk was reverted. The
// session's Changes view lists the file with its turns and net diff.
import fs from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { scenario, until } from './harness'

scenario('review-in-place', async (h) => {
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`)
  await h.start({
    files: { 'f.txt': lines.join('\n') + '\n' },
    script: [
      { code: 'patch("f.txt", old="line 2\\n", new="LINE TWO\\n")\npatch("f.txt", old="line 18\\n", new="LINE EIGHTEEN\\n")' },
      { content: ['Edited.'] },
      { content: ['I will explain line 2.'] },
    ],
  })
  const file = path.join(h.workspace, 'f.txt')
  await h.send('edit f.txt')
  await h.turnStatus(1, 'done')
  const card = h.page.locator('[data-testid="turn"][data-turn="1"]')
  const changes = card.locator('[data-testid="turn-changes"]')
  await until('the turn card to say what changed', async () => (await changes.count()) === 1 && (await changes.innerText()) === '1 file changed +2 −2')
  await changes.click()
  const f = card.locator('[data-testid="turn-diff-file"][data-path="f.txt"]')
  const hunks = f.locator('[data-testid="turn-diff-revert-hunk"]')
  await until('the diff to offer two hunks', async () => (await hunks.count()) === 2)

  // Revert the second hunk only.
  await hunks.nth(1).click()
  await until('line 18 to be back on disk', async () => fs.readFileSync(file, 'utf8').includes('line 18\n'))
  expect(fs.readFileSync(file, 'utf8')).toContain('LINE TWO\n')
  expect(fs.readFileSync(file, 'utf8')).not.toContain('EIGHTEEN')
  const revert = h.page.locator('[data-testid="turn"][data-turn="2"]')
  await until('the revert as turn 2', async () => (await revert.count()) === 1 && (await revert.locator('[data-testid="turn-request"]').innerText()) === 'Revert hunk 2 of f.txt in turn 1')

  // Comment on the turn's line 2 and send it.
  if ((await f.count()) === 0) await changes.click()
  const line = f.locator('[data-testid="turn-diff-line"][data-side="new"][data-line="2"]')
  await until('line 2 of the diff', async () => (await line.count()) === 1)
  expect(await line.innerText()).toBe('+LINE TWO')
  await line.click()
  await f.locator('[data-testid="turn-diff-comment-text"]').fill('Why upper case?')
  await f.locator('[data-testid="turn-diff-comment-add"]').click()
  const send = card.locator('[data-testid="turn-diff-send-comments"]')
  await until('the send button', async () => (await send.count()) === 1)
  expect(await send.innerText()).toBe('Send 1 comment')
  await send.click()
  await h.turnStatus(3, 'done')
  const msg = 'Review comments on the changes of turn 1:\n\nf.txt:2 — `LINE TWO`\nWhy upper case?'
  const asked = h.page.locator('[data-testid="turn"][data-turn="3"] [data-testid="turn-request"]')
  expect((await asked.innerText()).trim()).toBe(msg)
  expect(h.lastUserTexts().at(-1)).toContain(msg)
  expect(h.lastUserTexts().at(-1)).toContain("reverted hunk 2 of turn 1's change to f.txt")

  // The session's Changes view: f.txt, changed by turns 1 and 2, its net diff the kept hunk.
  await h.page.locator('[data-testid="session-changes-button"]').click()
  const row = h.page.locator('[data-testid="session-changes-file"][data-path="f.txt"]')
  await until('the Changes view to list f.txt', async () => (await row.count()) === 1)
  expect(await row.getAttribute('data-status')).toBe('modified')
  expect((await row.locator('[data-testid="session-changes-turns"]').innerText()).trim()).toBe('turns 1 and 2')
  expect(await row.locator('[data-testid="session-changes-net"]').innerText()).toBe('+1 −1')
  await row.locator('[data-testid="session-changes-open"]').click()
  const net = row.locator('[data-testid="session-changes-diff"] .line.add')
  await until('the net diff', async () => (await net.count()) === 1)
  expect(await net.innerText()).toBe('+LINE TWO')
  await h.page.locator('[data-testid="session-changes-close"]').click()
  await until('the Changes view to close', async () => (await h.page.locator('[data-testid="session-changes"]').count()) === 0)

  // A turn's number in the Changes view shows that turn: the view closes
  // and the transcript scrolls to turn 1, marked as focused.
  await h.page.locator('[data-testid="session-changes-button"]').click()
  await until('the Changes view to list f.txt again', async () => (await row.count()) === 1)
  await row.locator('[data-testid="session-changes-turn"]', { hasText: '1' }).click()
  await until('the Changes view to close on a turn', async () => (await h.page.locator('[data-testid="session-changes"]').count()) === 0)
  await until('turn 1 to be shown', async () => (await h.page.locator('[data-testid="turn"][data-turn="1"][data-focused]').count()) === 1)
  const box = await h.page.locator('[data-testid="turn"][data-turn="1"]').boundingBox()
  expect(box && box.y >= 0 && box.y < 300).toBe(true)
  await h.record('changes-jump')
  await h.assertHealthy()
})
