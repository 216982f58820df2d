// Page benchmarks in Chromium (run by scripts/bench-ui.sh, never by make
// test; they assert nothing about time). Results go to $E2E_OUT/page.json.
//
// open-session: the page shows a small session; clicking the 2,000-iteration
//   session in the sidebar is timed in the page, from the click to the first
//   animation frame after the transcript shows that session's text (that
//   frame is painted with it).
// streaming: the scripted LLM streams an answer at a fixed chunk rate per
//   level; the page counts the engine events it receives (the Wails
//   "vis:events" batches) and timestamps every animation frame. A level is
//   absorbed when no 1-second window of the stream falls below 30 frames.
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'vitest'
import { Harness, type Reply, sleep, until } from './harness'

const out = () => path.join(process.env.E2E_OUT ?? '.', 'page.json')
const results: Record<string, unknown> = fs.existsSync(out()) ? JSON.parse(fs.readFileSync(out(), 'utf8')) : {}
function save(key: string, v: unknown) {
  results[key] = v
  fs.writeFileSync(out(), JSON.stringify(results, null, 2))
  console.log(key, JSON.stringify(v))
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

/** The sidebar row of a session: the contract's testid, else its title text. */
async function sessionRow(h: Harness, id: string, title: string): Promise<string> {
  const sel = `[data-testid="session-item"][data-session-id="${id}"]`
  if (await h.page.locator(sel).count()) return sel
  // Fallback for a sidebar without the testids: tag the element showing the title.
  const ok = await h.page.evaluate((title) => {
    // The innermost clickable element showing the title.
    const all = Array.from(document.querySelectorAll('button, a, [role="button"], li'))
    const el = all.filter((e) => (e.textContent ?? '').includes(title)).pop()
    if (!el) return false
    el.setAttribute('data-bench-row', title)
    return true
  }, title)
  if (!ok) throw new Error(`no sidebar row for session ${id} (${title})`)
  return `[data-bench-row="${title}"]`
}

/**
 * Clicks sel in the page and times until the transcript shows one of the
 * markers (text only that session has, whatever part of it a virtualised
 * list renders), plus one more animation frame: the frame painted with it.
 */
async function timeOpen(h: Harness, sel: string, markers: string[]): Promise<number> {
  return h.page.evaluate(
    async ({ sel, markers }) => {
      const raf = () => new Promise((r) => requestAnimationFrame(() => r(null)))
      const shows = () => {
        const t = document.querySelector('[data-testid="transcript"]') ?? document.querySelector('main') ?? document.body
        const text = t.textContent ?? ''
        return markers.some((m) => text.includes(m))
      }
      const el = document.querySelector(sel) as HTMLElement
      const t0 = performance.now()
      el.click()
      while (!shows()) {
        await raf()
        if (performance.now() - t0 > 120_000) throw new Error(`the session did not show within 120 s (looking for ${markers.join(' | ')})`)
      }
      await raf()
      return performance.now() - t0
    },
    { sel, markers },
  )
}

const BIG = ['Big session turn', 'of a program that prints', 'Done with this step']
const SMALL = ['Small session', 'The project has']

test('open a 2,000-iteration session', async () => {
  const home = process.env.BENCH_HOME
  const ws = process.env.BENCH_WORKSPACE
  const big = process.env.BENCH_BIG_ID
  const small = process.env.BENCH_SMALL_ID
  if (!home || !ws || !big || !small) throw new Error('BENCH_HOME, BENCH_WORKSPACE, BENCH_BIG_ID, BENCH_SMALL_ID must be set (scripts/bench-ui.sh)')
  const h = new Harness('bench-open')
  try {
    await h.start({ script: [{ content: ['unused'] }], workspace: ws, homeFrom: home })
    await until('the page to show the latest (small) session', async () =>
      ((await h.page.locator('[data-testid="transcript"]').first().textContent()) ?? '').includes(SMALL[1]),
    60_000)
    await sleep(1000)
    const times: number[] = []
    for (let i = 0; i < 5; i++) {
      const bigSel = await sessionRow(h, big, 'Big session turn 1')
      times.push(await timeOpen(h, bigSel, BIG))
      await sleep(500)
      const smallSel = await sessionRow(h, small, SMALL[0])
      await timeOpen(h, smallSel, SMALL)
      await sleep(500)
    }
    // How much of the session the page keeps in the DOM (a virtualised list keeps little).
    await timeOpen(h, await sessionRow(h, big, 'Big session turn 1'), BIG)
    await sleep(1000)
    const domNodes = await h.page.evaluate(() => document.getElementsByTagName('*').length)
    save('open_session', { runs_ms: times.map((t) => Math.round(t)), first_ms: Math.round(times[0]), median_ms: Math.round(median(times)), dom_elements_open: domNodes })
  } finally {
    await h.record('bench-open')
    await h.close()
  }
}, 600_000)

interface Level {
  /** rate: ~5 s at a fixed chunk rate; long: the same rate over a much longer answer; burst: no delay at all. */
  kind: 'rate' | 'long' | 'burst'
  delay_ms: number
  chunks: number
}

test('events per second while streaming', async () => {
  const levels: Level[] = [
    { kind: 'rate', delay_ms: 20, chunks: 200 },
    { kind: 'rate', delay_ms: 10, chunks: 400 },
    { kind: 'rate', delay_ms: 5, chunks: 800 },
    { kind: 'rate', delay_ms: 2, chunks: 2000 },
    { kind: 'rate', delay_ms: 1, chunks: 3000 },
    { kind: 'long', delay_ms: 1, chunks: 10000 },
    { kind: 'burst', delay_ms: 0, chunks: 10000 },
  ]
  const script: Reply[] = levels.map((l) => ({
    content: Array.from({ length: l.chunks }, (_, i) => (i % 40 === 39 ? `w${i}.\n\n` : `w${i} `)),
    delay: `${Math.round(l.delay_ms * 1000)}us`,
    usage: { input_tokens: 100, output_tokens: l.chunks },
  }))
  const h = new Harness('bench-stream')
  try {
    const page = await h.start({ script })
    await until('the composer', async () => (await page.locator('[data-testid="composer-input"], textarea').count()) > 0, 60_000)
    await page.evaluate(() => {
      const w = window as unknown as {
        __bench: { frames: number[]; events: [number, string][] }
        runtime: { EventsOn: (n: string, cb: (b: { event: string }[]) => void) => void }
      }
      w.__bench = { frames: [], events: [] }
      const loop = (t: number) => {
        w.__bench.frames.push(t)
        requestAnimationFrame(loop)
      }
      requestAnimationFrame(loop)
      w.runtime.EventsOn('vis:events', (batch) => {
        const now = performance.now()
        for (const e of batch) w.__bench.events.push([now, e.event])
      })
    })
    const rows = []
    for (const [i, l] of levels.entries()) {
      if (i > 0 && (await page.locator('[data-testid="session-new"]').count())) {
        await page.locator('[data-testid="session-new"]').click()
        await sleep(300)
      }
      const input = page.locator('[data-testid="composer-input"], textarea').first()
      const before = await page.evaluate(() => (window as unknown as { __bench: { events: unknown[] } }).__bench.events.length)
      await input.fill(`Stream level ${i + 1}`)
      await input.press('Enter')
      await until(`level ${i + 1} to end`, async () =>
        page.evaluate((before) => {
          const ev = (window as unknown as { __bench: { events: [number, string][] } }).__bench.events
          return ev.slice(before).some((e) => e[1] === 'turn-end')
        }, before),
      120_000)
      const r = await page.evaluate((before) => {
        const b = (window as unknown as { __bench: { frames: number[]; events: [number, string][] } }).__bench
        const ev = b.events.slice(before)
        const content = ev.filter((e) => e[1] === 'content')
        const t0 = content[0][0]
        const t1 = content[content.length - 1][0]
        const inWin = ev.filter((e) => e[0] >= t0 && e[0] <= t1)
        const frames = b.frames.filter((t) => t >= t0 && t <= t1)
        let maxGap = 0
        for (let k = 1; k < frames.length; k++) maxGap = Math.max(maxGap, frames[k] - frames[k - 1])
        // The fewest frames in any 1-second window of the stream (windows start at each frame).
        let minFps = Infinity
        if (t1 - t0 >= 1000) {
          for (let a = 0, z = 0; a < frames.length && frames[a] + 1000 <= t1; a++) {
            while (z < frames.length && frames[z] < frames[a] + 1000) z++
            minFps = Math.min(minFps, z - a)
          }
        } else minFps = (frames.length * 1000) / Math.max(1, t1 - t0)
        return {
          seconds: (t1 - t0) / 1000,
          events: inWin.length,
          content_events: content.length,
          events_per_s: inWin.length / ((t1 - t0) / 1000),
          mean_fps: frames.length / ((t1 - t0) / 1000),
          min_fps_1s: minFps,
          max_frame_ms: maxGap,
        }
      }, before)
      const row = { ...l, ...r }
      console.log('level', JSON.stringify(row))
      rows.push(row)
      await sleep(1000)
    }
    save('streaming', rows)
  } finally {
    await h.record('bench-stream')
    await h.close()
  }
}, 900_000)
