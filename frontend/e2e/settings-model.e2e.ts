// Settings as a person first meets them: Custom starts with an empty URL; a
// server that is not running is explained in one sentence with what to do;
// an endpoint that lists one model fills the Model field, and choosing it
// from the list works.
import { expect } from 'vitest'
import net from 'node:net'
import { scenario, sleep, until } from './harness'

const MODEL = 'providertest-model' // the one model fakellm lists

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer()
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

scenario('settings-one-model', async (h) => {
  await h.start({ configured: false, script: [{ content: ['Configured.'] }] })
  await sleep(1000) // with nothing configured the dialog opens on its own
  if (!(await h.el('settings-dialog').count())) await (await h.visible('settings-open')).click()
  await h.visible('settings-dialog')
  const preset = await h.visible('settings-preset')
  const url = await h.visible('settings-base-url')
  await preset.selectOption('openai')
  await until('the OpenAI URL', async () => (await url.inputValue()).includes('api.openai.com'))
  await preset.selectOption('custom')
  await until('Custom to start with an empty URL', async () => (await url.inputValue()) === '')

  // Nothing listens there.
  await url.fill(`http://127.0.0.1:${await closedPort()}/v1`)
  await (await h.visible('settings-test')).click()
  const verdict = await h.visible('settings-verdict')
  await until('a sentence about the stopped server', async () => /not running \(connection refused\): start it/.test(await verdict.innerText()))
  expect(await verdict.innerText()).not.toMatch(/dial tcp|provider http/)

  await url.fill(h.llmURL)
  const model = await h.visible('settings-model')
  await model.fill('')
  await (await h.visible('settings-load-models')).click()
  await until('the only model to fill the Model field', async () => (await model.inputValue()) === MODEL)
  await model.fill('')
  const options = h.el('settings-model-option')
  expect(await options.count()).toBe(1)
  await options.first().click()
  expect(await model.inputValue()).toBe(MODEL)

  await (await h.visible('settings-save')).click()
  await until('the dialog to close', async () => (await h.el('settings-dialog').count()) === 0)
  await h.send('Hello')
  await h.turnStatus(1, 'done')
  const provider = (await (await h.visible('footer-provider')).innerText()).trim()
  expect(provider).toBe(new URL(h.llmURL).host)
})
