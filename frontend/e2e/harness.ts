// The end-to-end harness: one scenario = a fresh VIS_HOME and workspace, its
// own scripted LLM (fakellm) and its own dev-tagged Vis binary serving the
// page with its Go bindings on 127.0.0.1, driven by Chromium (playwright-core,
// /usr/bin/chromium, never a downloaded browser).
//
// scripts/e2e.sh builds the binaries, starts Xvfb (the dev binary also opens
// its real WebKit window there) and sets:
//   E2E_BIN       the `go build -tags dev` binary
//   E2E_FAKELLM   the fakellm binary (backend/provider/providertest/fakellm)
//   E2E_DISPLAY   the X display for the app
//   E2E_ASSETDIR  frontend/dist, served from disk
//   E2E_TMP       scratch folder (homes, workspaces, scripts)
//   E2E_OUT       per-scenario logs and screenshots (build/e2e)
//   E2E_RESULTS   JSON lines, one per scenario: pass, fail or not-run (the summary)
//   E2E_PIDS      file listing every process group started (and "done PID" once it
//                 is gone), for the script's trap
//
// Every child runs in its own process group and is killed with it when the
// scenario ends, whatever its outcome. A scenario fails on an uncaught page
// error, a visible `app-error`, a panic in the app's log or the app dying.
//
// The fake LLM writes every chat request it gets to a JSON-lines file
// (fakellm -requests): h.requests() reads it, so a scenario can check what
// reached the model and that nothing more did.
// h.restartApp() quits the app and starts it again on the same home, port
// (the page's origin, so its localStorage stays) and fake LLM: a Vis that
// quit and came back.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { chromium, type Browser, type Locator, type Page } from 'playwright-core'
import { test } from 'vitest'
import { SCENARIOS, selected } from './scenarios'

/** One scripted LLM reply (backend/provider/providertest Reply). */
export interface Reply {
  reasoning?: string[]
  content?: string[]
  code?: string
  calls?: { id?: string; name?: string; args?: string; fragment?: number }[]
  usage?: { input_tokens: number; output_tokens: number }
  delay?: string
  hang?: boolean
  hang_after?: number
  status?: number
  message?: string
  finish?: string
  /** The model's context window in characters: a larger request is refused as too long (HTTP 400, context_length_exceeded) and this reply waits for one that fits. */
  max_input_chars?: number
}

export interface StartOptions {
  /** The fake LLM's replies, served in order (with repeat: round and round). */
  script: Reply[]
  repeat?: boolean
  /** Set VIS_BASE_URL/VIS_MODEL/VIS_API_KEY to the fake LLM (default true). */
  configured?: boolean
  /** Files of the workspace, relative path -> content. */
  files?: Record<string, string>
  /** Use this existing folder as the workspace instead of a fresh one. */
  workspace?: string
  /** Copy this VIS_HOME (sessions made beforehand, e.g. by `vis run`) into the fresh one. */
  homeFrom?: string
  /** VIS_MODEL (default fake-model; gpt-4o is taken for a vision model). */
  model?: string
}

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export const DEFAULT_FILES: Record<string, string> = {
  'README.md': '# Demo\n\nA tiny demo project for the end-to-end test.\n',
  'main.py': 'print("hello")\n',
}

function need(name: string): string {
  const v = process.env[name]
  if (!v) throw new Error(`${name} is not set: run the end-to-end tests with scripts/e2e.sh`)
  return v
}

/** A CSS selector for a data-testid of the shared contract. */
export const tid = (id: string) => `[data-testid="${id}"]`

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}

/** Polls f until it returns a truthy value; throws `what` with the last value after timeout ms. */
export async function until<T>(what: string, f: () => Promise<T>, timeout = 20_000): Promise<T> {
  const end = Date.now() + timeout
  let last: unknown
  for (;;) {
    try {
      const v = await f()
      if (v) return v
      last = v
    } catch (e) {
      last = e instanceof Error ? e.message.split('\n')[0] : e
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeout / 1000}s waiting for: ${what} (last: ${JSON.stringify(last)})`)
    await sleep(100)
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.unref()
    s.on('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const a = s.address()
      s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port'))))
    })
  })
}

interface Proc {
  name: string
  child: ChildProcess
  log: string
  exited: boolean
  code: number | null
}

function startProc(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv, log: string, cwd: string): Proc {
  const fd = fs.openSync(log, 'a')
  const child = spawn(cmd, args, { env, cwd, detached: true, stdio: ['ignore', fd, fd] })
  fs.closeSync(fd)
  if (!child.pid) throw new Error(`could not start ${cmd}`)
  fs.appendFileSync(need('E2E_PIDS'), `${child.pid}\n`)
  const p: Proc = { name, child, log, exited: false, code: null }
  child.on('exit', (code, sig) => {
    p.exited = true
    p.code = code ?? (sig ? 128 : null)
  })
  return p
}

async function stopProc(p: Proc | undefined): Promise<void> {
  if (!p || !p.child.pid) return
  const pg = -p.child.pid
  const kill = (sig: NodeJS.Signals) => {
    try {
      process.kill(pg, sig)
    } catch {
      /* gone already */
    }
  }
  kill('SIGTERM')
  for (let i = 0; i < 40 && !p.exited; i++) await sleep(100)
  kill('SIGKILL')
  for (let i = 0; i < 20 && !p.exited; i++) await sleep(100)
  // Gone: the script's trap must not signal this number again (it may be reused).
  if (p.exited) fs.appendFileSync(need('E2E_PIDS'), `done ${p.child.pid}\n`)
}

function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')
  } catch {
    return '(no log)'
  }
}

/** One chat request the engine sent to the fake LLM (a line of fakellm -requests). */
export interface LlmRequest {
  /** 1 for the first request. */
  n: number
  /** The messages as sent (role, content: a string or parts). */
  messages: { role: string; content: unknown }[]
}

/** The text of a message's content: a string, or its text parts joined. */
export function contentText(c: unknown): string {
  if (typeof c === 'string') return c
  if (!Array.isArray(c)) return ''
  return c.map((p) => (p && typeof p === 'object' && typeof p.text === 'string' ? p.text : '')).join('\n')
}

/** Clean environment for the app: none of the developer's provider settings leak in. */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('VIS_') || k.startsWith('OPENAI_') || k.startsWith('E2E_') || k === 'VITEST' || k.startsWith('VITEST_')) continue
    env[k] = v
  }
  return env
}

/** A scenario's world: the processes, the browser and the page. */
export class Harness {
  readonly name: string
  readonly dir: string
  readonly out: string
  readonly home: string
  workspace: string
  page!: Page
  llmURL = ''
  appURL = ''
  private browser?: Browser
  private llm?: Proc
  private app?: Proc
  private appEnv: NodeJS.ProcessEnv = {}
  private readonly requestLog: string
  private pageErrors: string[] = []
  private consoleLines: string[] = []

  constructor(name: string) {
    this.name = name
    this.dir = fs.mkdtempSync(path.join(need('E2E_TMP'), `${name}-`))
    this.out = path.join(need('E2E_OUT'), name)
    fs.rmSync(this.out, { recursive: true, force: true })
    fs.mkdirSync(this.out, { recursive: true })
    this.home = path.join(this.dir, 'home')
    this.requestLog = path.join(this.out, 'requests.jsonl')
    // A recognisable folder name: the header shows it.
    this.workspace = path.join(this.dir, `demo-${name}`)
    fs.mkdirSync(this.home)
    fs.mkdirSync(this.workspace)
  }

  /** Starts the fake LLM, the app on the workspace, Chromium, and loads the page. */
  async start(o: StartOptions): Promise<Page> {
    if (o.workspace) this.workspace = o.workspace
    if (o.homeFrom) fs.cpSync(o.homeFrom, this.home, { recursive: true })
    if (!o.workspace) for (const [rel, text] of Object.entries(o.files ?? DEFAULT_FILES)) {
      const f = path.join(this.workspace, rel)
      fs.mkdirSync(path.dirname(f), { recursive: true })
      fs.writeFileSync(f, text)
    }
    const scriptFile = path.join(this.dir, 'script.json')
    fs.writeFileSync(scriptFile, JSON.stringify(o.script, null, 2))
    const llmLog = path.join(this.out, 'fakellm.log')
    const args = ['-script', scriptFile, '-addr', '127.0.0.1:0', '-requests', this.requestLog]
    if (o.repeat) args.push('-repeat')
    this.llm = startProc('fakellm', need('E2E_FAKELLM'), args, baseEnv(), llmLog, this.dir)
    this.llmURL = await until('fakellm to print "listening URL"', async () => {
      if (this.llm!.exited) throw new Error(`fakellm exited: ${tail(llmLog)}`)
      return /^listening (\S+)/m.exec(fs.readFileSync(llmLog, 'utf8'))?.[1] ?? ''
    }, 15_000)

    const port = await freePort()
    this.appURL = `http://127.0.0.1:${port}/`
    const env: NodeJS.ProcessEnv = {
      ...baseEnv(),
      DISPLAY: need('E2E_DISPLAY'),
      NO_AT_BRIDGE: '1',
      VIS_HOME: this.home,
      // Wails dev builds read these instead of -assetdir/-devserver flags,
      // which leaves the first argument free for the workspace.
      assetdir: need('E2E_ASSETDIR'),
      devserver: `127.0.0.1:${port}`,
    }
    if (o.configured ?? true) {
      Object.assign(env, { VIS_BASE_URL: this.llmURL, VIS_MODEL: o.model ?? 'fake-model', VIS_API_KEY: 'e2e-test-key' })
    }
    this.appEnv = env
    await this.launchApp()

    this.browser = await chromium.launch({
      executablePath: process.env.E2E_CHROMIUM || '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_FLAGS,
    })
    const ctx = await this.browser.newContext({ viewport: { width: 1280, height: 860 } })
    this.page = await ctx.newPage()
    this.page.setDefaultTimeout(20_000)
    this.page.on('pageerror', (e) => {
      const where = e.stack ?? e.message
      this.consoleLines.push(`pageerror: ${where}`)
      // Wails' own dev-mode IPC script throws once in a plain browser
      // (a drag-and-drop hook looking for WebKit objects); not ours.
      if (!/\/wails\/(ipc|runtime)\.js/.test(where)) this.pageErrors.push(where)
    })
    this.page.on('console', (m) => this.consoleLines.push(`${m.type()}: ${m.text()}`))
    await this.page.goto(this.appURL, { waitUntil: 'load' })
    return this.page
  }

  private async launchApp(): Promise<void> {
    const appLog = path.join(this.out, 'app.log')
    this.app = startProc('vis', need('E2E_BIN'), [this.workspace], this.appEnv, appLog, this.dir)
    await until(`the app to serve ${this.appURL}`, async () => {
      this.assertAppAlive()
      const r = await fetch(this.appURL).catch(() => null)
      return r?.ok ?? false
    }, 60_000)
  }

  /**
   * Quits the app (SIGTERM, as a person's quit) and starts it again on the
   * same home, workspace, port and fake LLM, then loads the page again.
   */
  async restartApp(): Promise<void> {
    await stopProc(this.app)
    fs.appendFileSync(path.join(this.out, 'app.log'), '\n---- e2e: the app was quit and starts again ----\n')
    await this.launchApp()
    await this.page.goto(this.appURL, { waitUntil: 'load' })
  }

  /** The chat requests the engine sent to the fake LLM so far, in order (complete lines only). */
  requests(): LlmRequest[] {
    let text = ''
    try {
      text = fs.readFileSync(this.requestLog, 'utf8')
    } catch {
      return [] // none yet
    }
    return text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as LlmRequest)
  }

  /** The last user message of each request so far (what the turn asked; a later iteration repeats it). */
  lastUserTexts(): string[] {
    return this.requests().map((r) => {
      const users = (r.messages ?? []).filter((m) => m.role === 'user')
      return contentText(users[users.length - 1]?.content)
    })
  }

  /** The locator of a data-testid. */
  el(id: string): Locator {
    return this.page.locator(tid(id))
  }

  /** Waits until the first element with data-testid id is visible. */
  async visible(id: string, timeout = 20_000): Promise<Locator> {
    const l = this.el(id).first()
    try {
      await l.waitFor({ state: 'visible', timeout })
    } catch {
      throw new Error(`data-testid="${id}" is not visible after ${timeout / 1000}s`)
    }
    return l
  }

  /** Types text into the composer and presses Enter. */
  async send(text: string): Promise<void> {
    const input = await this.visible('composer-input')
    await input.fill(text)
    await input.press('Enter')
  }

  /** The turn elements. */
  turns(): Locator {
    return this.el('turn')
  }

  /** Waits until turn n (1-based, in page order) has data-status status. */
  async turnStatus(n: number, status: string | RegExp, timeout = 30_000): Promise<string> {
    const re = typeof status === 'string' ? new RegExp(`^${status}$`) : status
    return until(`turn ${n} to have data-status ${re}`, async () => {
      const t = this.turns().nth(n - 1)
      if (!(await t.count())) return ''
      const s = (await t.getAttribute('data-status')) ?? ''
      return re.test(s) ? s : ''
    }, timeout)
  }

  assertAppAlive(): void {
    const log = path.join(this.out, 'app.log')
    if (this.app?.exited) throw new Error(`the app exited (code ${this.app.code}):\n${tail(log)}`)
    const text = fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : ''
    if (/panic:|fatal error:/.test(text)) throw new Error(`the app logged a panic:\n${tail(log, 60)}`)
  }

  /** Fails on what a person would see as broken: a dead app, an error banner, an uncaught error. */
  async assertHealthy(): Promise<void> {
    this.assertAppAlive()
    if (this.pageErrors.length) throw new Error(`uncaught error in the page:\n${this.pageErrors.join('\n')}`)
    const banner = this.el('app-error')
    if (await banner.count()) {
      if (await banner.first().isVisible()) throw new Error(`app-error shown: ${await banner.first().innerText()}`)
    }
  }

  /** Screenshot and logs into build/e2e/<scenario>/. */
  async record(label: string): Promise<void> {
    if (this.page && !this.page.isClosed()) {
      await this.page.screenshot({ path: path.join(this.out, `${label}.png`), fullPage: false }).catch(() => {})
      const html = await this.page.content().catch(() => '')
      fs.writeFileSync(path.join(this.out, `${label}.html`), html)
    }
    fs.writeFileSync(path.join(this.out, 'console.log'), this.consoleLines.join('\n') + '\n')
  }

  async close(): Promise<void> {
    await this.browser?.close().catch(() => {})
    await stopProc(this.app)
    await stopProc(this.llm)
    if (!process.env.E2E_KEEP) fs.rmSync(this.dir, { recursive: true, force: true })
  }
}

interface Result {
  name: string
  status: 'pass' | 'fail' | 'not-run'
  reason?: string
  seconds?: number
}

function report(r: Result): void {
  const f = process.env.E2E_RESULTS
  if (f) fs.appendFileSync(f, JSON.stringify(r) + '\n')
}

/**
 * Registers a scenario. Selected ones run with a fresh Harness that is torn
 * down afterwards; the others are registered as skipped with "NOT RUN" and
 * the reason in their name, and reported as not-run in results.jsonl.
 */
export function scenario(name: string, fn: (h: Harness) => Promise<void>, timeout = 180_000): void {
  const info = SCENARIOS[name]
  if (!info) throw new Error(`scenario ${name} is not listed in e2e/scenarios.ts`)
  if (!selected().has(name)) {
    const reason = process.env.E2E_SCENARIOS
      ? `not selected by E2E_SCENARIOS=${process.env.E2E_SCENARIOS}`
      : `not enabled in e2e/scenarios.ts; needs ${info.needs}`
    test.skip(`${name}: NOT RUN (${reason})`, () => {})
    report({ name, status: 'not-run', reason })
    return
  }
  test(
    name,
    async () => {
      const h = new Harness(name)
      const t0 = Date.now()
      try {
        await fn(h)
        await h.assertHealthy()
        await h.record('final')
        report({ name, status: 'pass', seconds: (Date.now() - t0) / 1000 })
      } catch (e) {
        await h.record('failure')
        const msg = e instanceof Error ? e.message : String(e)
        report({ name, status: 'fail', reason: msg.split('\n')[0], seconds: (Date.now() - t0) / 1000 })
        throw new Error(`${msg}\n  (screenshot, page HTML and logs: ${h.out})`, { cause: e })
      } finally {
        await h.close()
      }
    },
    timeout,
  )
}
