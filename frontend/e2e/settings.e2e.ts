// Settings with nothing configured: open the dialog, pick a preset, point it
// at the scripted server, test the connection (GET /v1/models), save; then a
// turn runs on the saved provider, and after a reload the dialog shows what
// was saved but never the API key in full.
import { expect } from 'vitest'
import { type Harness, scenario, sleep, until } from './harness'
import type { Locator } from 'playwright-core'

const SECRET = 'sk-e2e-secret-0123456789abcdef'
const MODEL = 'providertest-model' // what fakellm lists at GET /v1/models

async function tag(l: Locator): Promise<string> {
  return l.evaluate((e) => e.tagName)
}

/** Picks the preset whose label matches: a <select>, one element per preset, or a container of choices. */
async function choosePreset(h: Harness, label: RegExp): Promise<void> {
  const presets = h.el('settings-preset')
  await presets.first().waitFor({ state: 'visible' })
  if ((await presets.count()) > 1) {
    await presets.filter({ hasText: label }).first().click()
    return
  }
  const p = presets.first()
  if ((await tag(p)) === 'SELECT') {
    const opts = await p.locator('option').evaluateAll((os) => os.map((o) => ({ v: (o as HTMLOptionElement).value, t: o.textContent ?? '' })))
    const o = opts.find((x) => label.test(x.t) || label.test(x.v))
    if (!o) throw new Error(`settings-preset has no option matching ${label}: ${JSON.stringify(opts)}`)
    await p.selectOption(o.v)
    return
  }
  await p.getByText(label).first().click()
}

/** Sets an input, or picks the option of a <select>. */
async function setField(l: Locator, value: string): Promise<void> {
  if ((await tag(l)) === 'SELECT') {
    await until(`option ${value} in the select`, async () => (await l.locator(`option[value="${value}"]`).count()) > 0)
    await l.selectOption(value)
  } else {
    await l.fill(value)
  }
}

async function openSettings(h: Harness): Promise<Locator> {
  const dialog = h.el('settings-dialog')
  // With nothing configured the dialog may open on its own.
  await sleep(1000)
  if (!(await dialog.count()) || !(await dialog.first().isVisible())) await (await h.visible('settings-open')).click()
  return h.visible('settings-dialog')
}

scenario('settings', async (h) => {
  const page = await h.start({ configured: false, script: [{ content: ['Configured through settings: ', 'it works.'] }] })
  await openSettings(h)

  // A local preset fills in its URL.
  await choosePreset(h, /ollama/i)
  const url = await h.visible('settings-base-url')
  await until('the Ollama preset to fill in its base URL', async () => (await url.inputValue()).includes('localhost:11434'))

  // A custom endpoint: the scripted server.
  await choosePreset(h, /custom/i)
  await url.fill(h.llmURL)
  await (await h.visible('settings-key')).fill(SECRET)
  const model = await h.visible('settings-model')
  if ((await tag(model)) !== 'SELECT') await model.fill(MODEL)
  await (await h.visible('settings-test')).click()
  const verdict = await h.visible('settings-verdict')
  await until('a "connected" verdict', async () => /connected/i.test(await verdict.innerText()))
  expect(await verdict.innerText()).not.toMatch(/does not list|fail|nothing answers|refused/i)
  await setField(model, MODEL)
  await (await h.visible('settings-save')).click()
  await until('the dialog to close after saving', async () => {
    const d = h.el('settings-dialog')
    if (!(await d.count()) || !(await d.first().isVisible())) return true
    await page.keyboard.press('Escape') // a dialog that stays open after saving
    return false
  })

  // The saved provider answers a turn.
  await h.send('Does it work?')
  await h.turnStatus(1, 'done')
  expect(await h.el('turn-answer').first().innerText()).toContain('it works')

  // After a reload the dialog shows the saved provider, and never the key in full.
  await page.reload({ waitUntil: 'load' })
  await (await h.visible('settings-open')).click()
  await h.visible('settings-dialog')
  await until('the saved base URL', async () => (await h.el('settings-base-url').inputValue()) === h.llmURL)
  expect(await h.el('settings-model').inputValue()).toBe(MODEL)
  expect(await h.el('settings-key').inputValue()).not.toContain(SECRET)
  expect(await page.content(), 'the API key must never reach the page').not.toContain(SECRET)
})
