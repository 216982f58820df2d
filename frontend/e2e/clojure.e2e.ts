// Issue 6: the scripted end-to-end Clojure REPL run. In a deps.edn project
// the model's program starts a real nREPL (Debian's clojure + nrepl jars on a
// plain `java -cp`) and evaluates (+ 1 2) in it; the transcript shows 3, the
// footer counts one REPL and its badge opens the REPL sidebar, where the
// nREPL's row is up, names its folder and port, and its log shows the launch
// line. While its JVM is frozen, a turn's liveness probe marks the row
// unresponsive with the failed form and the hint. A last turn stops it
// through the model's `session` dict (which
// proves the nREPL slice reached the model): the row goes, the badge drops
// to 0, the JVM is gone and nothing listens on its port any more.
import net from 'node:net'
import path from 'node:path'
import { expect } from 'vitest'
import { scenario, until } from './harness'

/** Whether something on 127.0.0.1 accepts a TCP connection on port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port })
    s.setTimeout(1000)
    s.once('connect', () => {
      s.destroy()
      resolve(true)
    })
    s.once('timeout', () => {
      s.destroy()
      resolve(true) // nothing refused it: treat as still there
    })
    s.once('error', () => resolve(false))
  })
}

/** Whether process pid exists (a reaped child does not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

scenario('clojure', async (h) => {
  await h.start({
    files: {
      'deps.edn': '{:paths ["src"]}\n',
      'src/demo/core.clj': '(ns demo.core)\n(defn add [a b] (+ a b))\n',
    },
    script: [
      {
        code:
          "r = repl_start('clojure')\nprint(r['result'], r['id'])\n" +
          "v = repl_eval('clojure', {'code': '(+ 1 2)'})\nprint('value', v['value'])",
      },
      { content: ['One plus two is **3**.'] },
      { content: ['The REPL does not answer.'] },
      {
        code: "s = repl_stop(session['env']['languages']['clojure']['nrepl']['default'])\nprint(s['result'])",
      },
      { content: ['The nREPL is stopped.'] },
    ],
  })
  const folder = path.basename(h.workspace)
  await until('the footer to list the clojure pack', async () => (await h.el('footer-packs').innerText()).toLowerCase().includes('clojure'), 60_000)
  const badge = h.el('footer-repls')
  expect((await badge.innerText()).replace(/\s+/g, ' ')).toContain('REPLs 0')

  // Turn 1: start the nREPL and evaluate (+ 1 2).
  await h.send('Start a Clojure REPL and add one and two')
  await h.turnStatus(1, 'done', 90_000)
  const turn1 = h.turns().first()
  const out1 = (await turn1.locator('[data-testid="program-output"]').allInnerTexts()).join('\n')
  expect(out1).toContain('started nrepl:')
  expect(out1).toMatch(/^value 3$/m)
  expect(await turn1.locator('[data-testid="turn-answer"]').innerText()).toContain('3')
  await until('the footer REPL badge to count 1', async () => (await badge.innerText()).replace(/\s+/g, ' ').includes('REPLs 1'), 60_000)

  // The sidebar: one nREPL row, up, with its folder and port; its log shows the launch.
  await badge.click()
  const panel = await h.visible('repl-panel')
  const row = panel.locator('[data-testid="repl-row"]')
  await until('one REPL row', async () => (await row.count()) === 1, 60_000)
  await until('the row to be up', async () => (await row.first().getAttribute('data-status')) === 'up', 60_000)
  const rowText = await row.first().innerText()
  expect(rowText.toLowerCase()).toContain('clojure')
  expect(rowText).toContain(`nREPL ${folder}`)
  const port = Number(/port (\d+)/.exec(rowText)?.[1] ?? 0)
  const pid = Number(/pid (\d+)/.exec(rowText)?.[1] ?? 0)
  expect(port, `a port in the row: ${rowText}`).toBeGreaterThan(0)
  expect(pid, `a pid in the row: ${rowText}`).toBeGreaterThan(0)
  expect(await accepts(port), `the nREPL listens on ${port}`).toBe(true)
  expect(alive(pid), `the nREPL's JVM (pid ${pid}) runs`).toBe(true)

  await row.first().locator('[data-testid="repl-logs"]').click()
  const logView = await h.visible('repl-log-view')
  const launch = await until('the log to show the launch line', async () => {
    const t = await logView.innerText()
    return /\[vis\] \S+ starting in .*: .*java .*nrepl\.cmdline/.test(t) ? t : ''
  }, 60_000)
  expect(launch).toContain(folder)
  await h.page.screenshot({ path: path.join(h.out, 'sidebar-up.png') })

  // Turn 2: the JVM is frozen (SIGSTOP to its process group); the turn's
  // liveness probe finds it unresponsive, and the row says which form failed
  // and what to do.
  await row.first().locator('[data-testid="repl-logs"]').click() // close the log
  process.kill(-pid, 'SIGSTOP')
  try {
    await h.send('Is the REPL still there?')
    await h.turnStatus(2, 'done', 90_000)
    await until('the row to be unresponsive', async () => (await row.first().getAttribute('data-status')) === 'unresponsive', 60_000)
    const hint = (await row.first().locator('[data-testid="repl-hint"]').innerText()).replace(/\s+/g, ' ')
    expect(hint).toContain('(+ 1 1)')
    expect(hint).toContain('repl_stop')
    await h.page.screenshot({ path: path.join(h.out, 'sidebar-unresponsive.png') })
  } finally {
    process.kill(-pid, 'SIGCONT')
  }

  // Turn 3: the model stops the nREPL by the id it reads from its session dict.
  await h.send('Stop the Clojure REPL')
  await h.turnStatus(3, 'done', 90_000)
  const out2 = (await h.turns().nth(2).locator('[data-testid="program-output"]').allInnerTexts()).join('\n')
  expect(out2).toMatch(/^stopped$/m)
  await until('the row to go away', async () => {
    // One read of every row: a row that vanishes between two reads would hang getAttribute.
    const statuses = await row.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')))
    return statuses.length === 0
  }, 60_000)
  await until('the footer REPL badge to count 0', async () => (await badge.innerText()).replace(/\s+/g, ' ').includes('REPLs 0'), 60_000)
  expect(await panel.locator('[role="alert"]').count(), 'the panel shows no error').toBe(0)

  // The JVM is really gone: its process is reaped and its port refuses.
  await until(`the nREPL's JVM (pid ${pid}) to be gone`, async () => !alive(pid), 60_000)
  await until(`nothing to accept a connection on port ${port}`, async () => !(await accepts(port)), 60_000)
})
