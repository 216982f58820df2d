// Open a workspace (the folder is the app's first argument), send a request
// with Enter, watch the iteration stream in (the program, then its printed
// output, while the turn still runs) and the answer render as Markdown.
import path from 'node:path'
import { expect } from 'vitest'
import { scenario, until } from './harness'

const request = 'What is in this project?'

scenario('send-and-stream', async (h) => {
  const page = await h.start({
    script: [
      {
        reasoning: ['The user wants ', 'an overview. ', 'Reading the README ', 'first.'],
        code: "print(cat('README.md')['text'])\nprint(len(ls()), 'entries')",
        usage: { input_tokens: 900, output_tokens: 40 },
        delay: '120ms',
      },
      {
        // Slow enough that the program's output is on screen well before the turn ends.
        content: [
          'The project has **two** files:\n\n',
          '- `README.md` describes ',
          'a tiny demo\n',
          '- `main.py` prints hello\n\n',
          '```python\n',
          'print("hello")\n',
          '```\n\n',
          'Raw HTML stays text: ',
          '<span id="e2e-raw-html">raw</span>',
          '\n',
        ],
        usage: { input_tokens: 1150, output_tokens: 31 },
        delay: '300ms',
      },
    ],
  })

  // The workspace named on the command line is open.
  const ws = await h.visible('workspace-path')
  await until('workspace-path to name the workspace', async () => {
    const shown = `${await ws.innerText()} ${(await ws.getAttribute('title')) ?? ''}`
    return shown.includes(path.basename(h.workspace))
  })

  await h.send(request)
  await h.turnStatus(1, 'running')
  const turn = h.turns().first()

  // The program and then its output appear while the turn is still running.
  await until('the program to stream into the transcript', async () =>
    (await turn.locator('[data-testid="program"]').first().innerText()).includes("cat('README.md')"),
  )
  await until('the program output to appear', async () =>
    (await turn.locator('[data-testid="program-output"]').first().innerText()).includes('A tiny demo project'),
  )
  expect(await turn.getAttribute('data-status'), 'the output must show while the turn still runs').toBe('running')
  expect(await turn.locator('[data-testid="iteration"]').count()).toBeGreaterThanOrEqual(1)

  await h.turnStatus(1, 'done')
  expect(await turn.locator('[data-testid="turn-request"]').innerText()).toContain(request)
  expect(await turn.locator('[data-testid="iteration"]').count()).toBe(2)

  // Reasoning is there, collapsed by default.
  const reasoning = turn.locator('[data-testid="reasoning"]').first()
  expect(await reasoning.count(), 'the reasoning is shown').toBe(1)
  expect(await reasoning.evaluate((d) => (d as HTMLDetailsElement).open), 'reasoning collapsed by default').toBe(false)

  // The answer is rendered Markdown, with raw HTML kept as text.
  const answer = turn.locator('[data-testid="turn-answer"]')
  await until('the answer to render', async () => (await answer.innerText()).includes('The project has two files'))
  expect(await answer.locator('strong').innerText()).toBe('two')
  expect(await answer.locator('li').count()).toBe(2)
  expect(await answer.locator('code', { hasText: 'README.md' }).count()).toBe(1)
  expect(await answer.locator('pre').innerText()).toContain('print("hello")')
  expect(await page.locator('#e2e-raw-html').count(), 'raw HTML in an answer must not become elements').toBe(0)
  expect(await answer.innerText()).toContain('<span id="e2e-raw-html">raw</span>')

  // Per-turn stats: the iteration count at least.
  const stats = await turn.locator('[data-testid="turn-stats"]').innerText()
  expect(stats).toMatch(/\b2\b/)
})
