// A program's shell write outside the workspace is refused by the OS
// sandbox (workspace mode, the default): its card says the sandbox refused
// it and offers "Run again without the sandbox". The person approves once;
// the program runs again as a turn of its own ("approved by the person"),
// the file then exists, and the session stays in workspace mode. Then
// Settings turns on "Ask me at once": a refused write then waits at its
// call, one click approves it and the program goes on. Then Settings and
// the footer choose the session's mode (full in red).
import fs from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { scenario, tid, until } from './harness'

scenario('sandbox-rerun', async (h) => {
  const outside = path.join(h.dir, 'outside')
  fs.mkdirSync(outside)
  const target = path.join(outside, 'escape.txt')
  const asked = path.join(outside, 'asked.txt')
  await h.start({
    script: [
      { code: `r = shell('echo approved > ${target}')\nprint('exit', r['exit_code'], r['output'])` },
      { content: ['The sandbox refused the write.'] },
      { code: `r = shell('echo asked > ${asked}')\nprint('exit', r['exit_code'])\nprint('went on')` },
      { content: ['Written once you said yes.'] },
    ],
  })
  await h.send('Write a file outside the project')
  await h.turnStatus(1, 'done')
  const first = h.turns().first()
  const refused = first.locator(tid('sandbox-refused'))
  await until('the refusal on the card', async () => (await refused.count()) === 1)
  expect(await refused.innerText()).toMatch(/The sandbox refused it — workspace mode: .*escape\.txt: Permission denied/s)
  expect(fs.existsSync(target), 'the confined write got out').toBe(false)
  expect(await h.page.locator(tid('footer-mode')).getAttribute('data-mode')).toBe('workspace')
  await h.record('refused')

  // Never automatic: nothing ran again before the person's click.
  await first.locator(tid('sandbox-rerun')).click()
  await h.turnStatus(2, 'done')
  const second = h.turns().nth(1)
  expect(await second.locator(tid('turn-request')).innerText()).toContain('Run again without the sandbox (approved by the person)')
  expect(await second.locator(tid('program-output')).innerText()).toContain('exit 0')
  expect(await second.locator(tid('sandbox-refused')).count()).toBe(0)
  // The approval was for one run: the card names it instead of offering another.
  const done = first.locator(tid('sandbox-rerun-done'))
  await until('the first card to name the re-run', async () => (await done.count()) === 1)
  expect(await done.innerText()).toBe('Ran again without the sandbox in turn 2')
  expect(await first.locator(tid('sandbox-rerun')).count()).toBe(0)
  await until('the file written by the approved run', async () => fs.existsSync(target))
  expect(fs.readFileSync(target, 'utf8')).toBe('approved\n')
  // One approval, one run: the mode of the session is unchanged.
  expect(await h.page.locator(tid('footer-mode')).getAttribute('data-mode')).toBe('workspace')
  // The fake LLM was asked only for the first turn.
  expect(h.requests()).toHaveLength(2)
  await h.record('approved')

  // "Ask me at once" (Settings): the next refused write waits at its call
  // while the window asks; one click runs it without the sandbox and the
  // same program goes on with that result.
  await h.page.locator(tid('settings-open')).click()
  const ask = h.page.locator(tid('settings-ask-on-refusal'))
  expect(await ask.isChecked()).toBe(false)
  await ask.check()
  await h.page.locator(tid('settings-close')).click()
  await h.send('Write it again, asking me')
  const question = h.page.locator(tid('sandbox-question'))
  await until('the question at the call', async () => (await question.count()) === 1)
  expect(await h.page.locator(tid('sandbox-question-command')).innerText()).toBe(`echo asked > ${asked}`)
  expect(await question.innerText()).toMatch(/workspace mode: .*asked\.txt: Permission denied/s)
  expect(fs.existsSync(asked), 'the asked write ran before the answer').toBe(false)
  await h.record('asked')
  await question.locator(tid('sandbox-approve')).click()
  await h.turnStatus(3, 'done')
  await until('the question to go', async () => (await question.count()) === 0)
  const third = h.turns().nth(2)
  expect(await third.locator(tid('program-output')).innerText()).toMatch(/exit 0\s+went on/)
  await until('the card to record the approval', async () => (await third.locator(tid('sandbox-asked')).count()) === 1)
  expect(await third.locator(tid('sandbox-rerun')).count()).toBe(0)
  expect(fs.readFileSync(asked, 'utf8')).toBe('asked\n')
  await h.record('asked-approved')
  // Saved: Settings shows it on when opened again.
  await h.page.locator(tid('settings-open')).click()
  await until('ask on in Settings', async () => await h.page.locator(tid('settings-ask-on-refusal')).isChecked())
  await h.page.locator(tid('settings-close')).click()

  // The mode control: Settings chooses read-only for the session, the
  // footer then chooses full access, shown in red.
  const footerMode = h.page.locator(tid('footer-mode'))
  await h.page.locator(tid('settings-open')).click()
  await h.page.locator(tid('settings-mode-read-only')).check()
  await until('read-only in the footer', async () => (await footerMode.getAttribute('data-mode')) === 'read-only')
  await h.record('settings-mode')
  await h.page.locator(tid('settings-close')).click()
  await footerMode.selectOption('full')
  await until('full access in the footer', async () => (await footerMode.getAttribute('data-mode')) === 'full')
  const [r, g, b] = await footerMode.evaluate((el) =>
    (getComputedStyle(el.closest('label')!).color.match(/\d+/g) ?? []).slice(0, 3).map(Number),
  )
  expect(r - Math.max(g, b), `full access is shown in red (rgb ${r}, ${g}, ${b})`).toBeGreaterThan(80)
  await h.record('full-mode')
  // Remembered with the session: the mode is still full after a restart.
  await h.restartApp()
  await until('full access after a restart', async () => (await h.page.locator(tid('footer-mode')).getAttribute('data-mode')) === 'full')
  await h.assertHealthy()
})
