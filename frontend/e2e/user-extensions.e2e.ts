// The person's own commands, skills and MCP servers in the window (issue
// 19): a prompt file of $VIS_HOME/prompts shows in the "/" menu with its
// description, and "/hello Ada" sends the expanded text (the transcript's
// request and the model's message); Settings lists the prompt file and a
// skill of $VIS_HOME/skills, adds an MCP server whose "Test connection"
// fails with a reason, saves it into $VIS_HOME/mcp.json and removes it. A
// real MCP server of $VIS_HOME/mcp.json (the test server, E2E_MCPSERVER)
// returns an image to a program: the transcript shows it under that
// iteration once the turn ends, served by the window, and it opens larger.
import fs from 'node:fs'
import path from 'node:path'
import { expect } from 'vitest'
import { scenario, tid, until } from './harness'

scenario('user-extensions', async (h) => {
  fs.mkdirSync(path.join(h.home, 'prompts'), { recursive: true })
  fs.writeFileSync(path.join(h.home, 'prompts', 'hello.md'), '---\ndescription: Greet someone by name\n---\nSay hello to $1, politely.\n')
  fs.mkdirSync(path.join(h.home, 'skills', 'pdf'), { recursive: true })
  fs.writeFileSync(path.join(h.home, 'skills', 'pdf', 'SKILL.md'), '---\nname: pdf\ndescription: Fill PDF forms\n---\nUse pdftk.\n')
  const server = process.env.E2E_MCPSERVER
  if (!server) throw new Error('E2E_MCPSERVER is not set (scripts/e2e.sh builds the test MCP server)')
  fs.writeFileSync(path.join(h.home, 'mcp.json'), JSON.stringify({ mcpServers: { shots: { command: server } } }))
  await h.start({
    script: [{ content: ['Hello, Ada.'] }, { code: 'r = mcp.shots.image()\nprint(r[0], r[2])' }, { content: ['A tiny picture.'] }],
  })

  const input = await h.visible('composer-input')
  await input.fill('/he')
  const item = h.page.locator(tid('slash-item'), { hasText: '/hello' })
  await until('/hello in the slash menu', async () => (await item.count()) > 0)
  expect(await item.first().innerText()).toContain('Greet someone by name')
  await h.record('slash-menu')

  await input.fill('/hello Ada')
  await input.press('Enter')
  await h.turnStatus(1, 'done')
  expect(await h.turns().first().locator(tid('turn-request')).innerText()).toBe('Say hello to Ada, politely.')
  expect(h.lastUserTexts()[0]).toContain('Say hello to Ada, politely.')

  // An image an MCP tool returns shows under its iteration, served by the window.
  await input.fill('Take a screenshot')
  await input.press('Enter')
  await h.turnStatus(2, 'done', 60_000)
  const shot = h.turns().nth(1).locator(tid('tool-image'))
  await until('the tool image in the transcript', async () => (await shot.count()) === 1, 30_000)
  expect(await shot.getAttribute('title')).toContain('from mcp.shots.image')
  const img = shot.locator('img')
  await until('the tool image to load', async () => await img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth === 2))
  await shot.click()
  const box = await h.visible('image-lightbox')
  expect(await box.innerText()).toContain('image/png')
  await h.record('tool-image')
  await box.click()

  await (await h.visible('settings-open')).click()
  await h.visible('settings-dialog')
  const prompts = await h.visible('user-prompt')
  expect(await prompts.innerText()).toContain('Greet someone by name')
  expect(await (await h.visible('user-skill')).innerText()).toContain('Fill PDF forms')

  await (await h.visible('mcp-add')).click()
  await (await h.visible('mcp-name')).fill('broken')
  await (await h.visible('mcp-command')).fill('/bin/false')
  await (await h.visible('mcp-test')).click()
  const verdict = await h.visible('mcp-verdict', 40_000)
  await until('a failed verdict', async () => (await verdict.getAttribute('data-ok')) === 'false')
  expect((await verdict.innerText()).length).toBeGreaterThan(3)
  await h.record('mcp-test')
  await (await h.visible('mcp-save')).click()
  const row = h.page.locator(`${tid('mcp-server')}[data-name="broken"]`)
  await until('the saved server listed', async () => (await row.count()) === 1)
  const file = JSON.parse(fs.readFileSync(path.join(h.home, 'mcp.json'), 'utf8'))
  expect(file.mcpServers.broken.command).toBe('/bin/false')
  await row.locator(tid('mcp-remove')).click()
  await until('the server removed', async () => (await row.count()) === 0)
  expect(Object.keys(JSON.parse(fs.readFileSync(path.join(h.home, 'mcp.json'), 'utf8')).mcpServers)).toEqual(['shots'])
})
