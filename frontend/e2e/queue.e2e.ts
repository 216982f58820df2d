// Messages sent while a turn runs are queued visibly. After the turn they run
// in order; Stop instead cancels the turn and returns them to the composer.
import { expect } from 'vitest'
import { type Harness, scenario, sleep, until } from './harness'

async function queueTwo(h: Harness, a: string, b: string): Promise<void> {
  await h.send(a)
  await h.send(b)
  await until('two queue-item entries', async () => (await h.el('queue-item').count()) === 2)
  const items = await h.el('queue-item').allInnerTexts()
  expect(items[0]).toContain(a)
  expect(items[1]).toContain(b)
  expect(await h.turns().first().getAttribute('data-status'), 'turn 1 must still run while the queue is checked').toBe('running')
}

scenario('queue-then-run', async (h) => {
  const slow = Array.from({ length: 14 }, (_, i) => `part ${i + 1} of the long answer. `)
  await h.start({
    script: [
      { content: slow, delay: '300ms' },
      { content: ['First queued ', 'answer.'] },
      { content: ['Second queued ', 'answer.'] },
    ],
  })
  await h.send('Start a long task')
  await h.turnStatus(1, 'running')
  await queueTwo(h, 'Queued one', 'Queued two')

  await h.turnStatus(1, 'done', 30_000)
  // The queued messages run after it (as one turn each, or together), then the queue is empty.
  await until('the queued messages to run and finish', async () => {
    const n = await h.turns().count()
    if (n < 2 || (await h.el('queue-item').count()) > 0) return false
    // The queue sends one message per finished turn: between the two, the
    // queue is empty while the second is in flight, so wait for its turn.
    const sent = (await h.el('turn-request').allInnerTexts()).join('\n')
    if (!sent.includes('Queued two')) return false
    const statuses = await Promise.all(Array.from({ length: n }, (_, i) => h.turns().nth(i).getAttribute('data-status')))
    return statuses.every((s) => s === 'done')
  }, 30_000)
  const requests = (await h.el('turn-request').allInnerTexts()).join('\n')
  const one = requests.indexOf('Queued one')
  const two = requests.indexOf('Queued two')
  expect(one, 'first queued message was sent').toBeGreaterThan(-1)
  expect(two, 'second queued message was sent after the first').toBeGreaterThan(one)
  expect(await h.el('turn-answer').last().innerText()).toMatch(/queued answer/)
})

scenario('queue-stop-returns', async (h) => {
  await h.start({
    script: [{ reasoning: ['Working ', 'on it…'], hang_after: 3, delay: '50ms' }],
  })
  await h.send('Start a task that hangs')
  await h.turnStatus(1, 'running')
  await queueTwo(h, 'Follow-up A', 'Follow-up B')

  await (await h.visible('composer-stop')).click()
  await h.turnStatus(1, /cancel/)
  await until('the queue to empty', async () => (await h.el('queue-item').count()) === 0)
  const text = await (await h.visible('composer-input')).inputValue()
  expect(text, 'queued messages come back to the composer').toContain('Follow-up A')
  expect(text.indexOf('Follow-up B')).toBeGreaterThan(text.indexOf('Follow-up A'))
  // Nothing was sent: the fake has no reply left, so a sent message would show a second (failed) turn.
  await sleep(1500)
  expect(await h.turns().count(), 'Stop must not send the queued messages').toBe(1)
})
