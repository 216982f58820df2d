import { afterEach, describe, expect, it } from 'vitest'
import Footer from './Footer.svelte'
import TrustBanner from './TrustBanner.svelte'
import ProgramBlock from './ProgramBlock.svelte'
import QuestionCard from './QuestionCard.svelte'
import { all, cleanup, click, one, render, settle } from './testkit'
import { approvals, program, type TurnView } from '../lib/transcript'
import type { Status } from '../lib/types'

afterEach(cleanup)

const base: Status = {
  provider: 'app',
  provider_name: 'Ollama',
  model: 'm',
  base_url: 'http://x/v1',
  config_error: '',
  usage: { input_tokens: 0, output_tokens: 0, cached_tokens: 0, reasoning_tokens: 0 },
  cost_usd: null,
  context_used: 0,
  context_limit: 1000,
  packs: [],
  repls: 0,
  goal: null,
  running: false,
  sandbox: 'workspace',
  sandbox_source: 'config',
}

function footer(status: Status, onmode?: (m: string) => Promise<void>) {
  const props = $state({
    status,
    canSwitch: false,
    replsOpen: false,
    listModels: async () => [],
    onswitch: async () => {},
    onsettings: () => {},
    onrepls: () => {},
    onmode,
  })
  return { el: render(Footer, props), props }
}

function choose(sel: HTMLSelectElement, value: string) {
  sel.value = value
  sel.dispatchEvent(new Event('change', { bubbles: true }))
}

describe('the footer permission control', () => {
  it('chooses the mode for the session and shows full in red', async () => {
    const chosen: string[] = []
    const { el, props } = footer(base, async (m) => {
      chosen.push(m)
    })
    const sel = one<HTMLSelectElement>(el, 'footer-mode')!
    expect(sel.value).toBe('workspace')
    expect(sel.closest('label')!.classList.contains('full')).toBe(false)
    choose(sel, 'full')
    await settle()
    expect(chosen).toEqual(['full'])
    // The page shows what the engine says the next turn runs in.
    props.status = { ...base, sandbox: 'full', sandbox_source: 'session' }
    await settle()
    expect(sel.dataset.mode).toBe('full')
    expect(sel.closest('label')!.classList.contains('full')).toBe(true)
  })

  it('puts the choice back and says why when the engine refuses it', async () => {
    const { el } = footer(base, async () => {
      throw new Error('permission mode: no such session')
    })
    const sel = one<HTMLSelectElement>(el, 'footer-mode')!
    choose(sel, 'read-only')
    await settle()
    expect(sel.value).toBe('workspace')
    expect(sel.closest('label')!.title).toContain('no such session')
  })

  it('is fixed when the command line set the mode, and absent without a session', () => {
    const { el } = footer({ ...base, sandbox: 'read-only', sandbox_source: 'flag' }, async () => {})
    expect(one<HTMLSelectElement>(el, 'footer-mode')!.disabled).toBe(true)
    cleanup()
    const { el: none } = footer(base)
    expect(one(none, 'footer-mode')).toBeNull()
  })
})

describe('the trust banner', () => {
  it('names exactly the held settings and trusts the folder on request', async () => {
    const asked: string[] = []
    const props = $state({
      workspace: '/src/app',
      held: ['providers[work].{models}', 'system_prompt (replace: true)'],
      ontrust: async () => {
        asked.push('trust')
      },
    })
    const el = render(TrustBanner, props)
    expect(all(el, 'trust-held').map((x) => x.textContent)).toEqual(['providers[work].{models}', 'system_prompt (replace: true)'])
    expect(one(el, 'trust-banner')!.textContent).toContain('/src/app')
    click(one(el, 'trust-folder'))
    await settle()
    expect(asked).toEqual(['trust'])
    props.held = []
    await settle()
    expect(one(el, 'trust-banner')).toBeNull()
  })

  it('keeps the banner and shows the refusal when trusting fails', async () => {
    const el = render(TrustBanner, {
      workspace: '/w',
      held: ['x'],
      ontrust: async () => {
        throw new Error('trust folder: read-only settings')
      },
    })
    click(one(el, 'trust-folder'))
    await settle()
    expect(one(el, 'trust-banner')!.textContent).toContain('read-only settings')
  })
})

describe('a program the sandbox refused', () => {
  it('says so and offers one re-run without the sandbox', async () => {
    let runs = 0
    const el = render(ProgramBlock, {
      program: program({ code: "shell('touch /x')", output: 'exit 1', sandboxRefused: 'the sandbox (workspace mode) likely refused it: touch: Permission denied' }),
      onrerun: async () => {
        runs++
      },
    })
    expect(one(el, 'sandbox-refused')!.textContent).toContain('The sandbox refused it')
    const b = one<HTMLButtonElement>(el, 'sandbox-rerun')!
    expect(b.textContent).toBe('Run again without the sandbox')
    click(b)
    click(b)
    await settle()
    expect(runs).toBe(1)
    expect(b.disabled).toBe(true)
  })

  it('offers nothing for a program the sandbox let be', () => {
    const el = render(ProgramBlock, { program: program({ code: 'print(1)', output: '1' }), onrerun: async () => {} })
    expect(one(el, 'sandbox-refused')).toBeNull()
    expect(one(el, 'sandbox-rerun')).toBeNull()
  })
})

describe('a program that already ran again', () => {
  it('names the approval turn instead of offering another run', () => {
    const el = render(ProgramBlock, {
      program: program({ code: "shell('touch /x')", sandboxRefused: 'workspace mode: touch: Permission denied' }),
      onrerun: async () => {},
      rerunIn: 3,
    })
    expect(one(el, 'sandbox-rerun')).toBeNull()
    expect(one(el, 'sandbox-rerun-done')!.textContent).toBe('Ran again without the sandbox in turn 3')
  })

  it('is found from the engine’s approval turns', () => {
    const turn = (position: number, channel: string, request: string) =>
      ({ position, channel, request, iterations: [] }) as unknown as TurnView
    const got = approvals([
      turn(1, 'desktop', 'Run again without the sandbox (approved by the person): program 9 of turn 9, iteration 9'),
      turn(3, 'approval', 'Run again without the sandbox (approved by the person): program 2 of turn 1, iteration 4'),
    ])
    expect([...got]).toEqual([['1:4:1', 3]])
  })
})

describe('asked at the call ("ask" mode)', () => {
  const question = { id: 'q1', tool: 'shell', command: 'echo hi > /x', why: 'workspace mode: Permission denied', wait_seconds: 600 }

  it('the question names the command and why, and takes one answer', async () => {
    const answers: boolean[] = []
    const el = render(QuestionCard, {
      question,
      onanswer: async (approve: boolean) => {
        answers.push(approve)
      },
    })
    expect(one(el, 'sandbox-question-command')!.textContent).toBe('echo hi > /x')
    expect(one(el, 'sandbox-question')!.textContent).toContain('workspace mode: Permission denied')
    expect(one(el, 'sandbox-question')!.textContent).toContain('10 minutes')
    const yes = one<HTMLButtonElement>(el, 'sandbox-approve')!
    click(yes)
    click(one<HTMLButtonElement>(el, 'sandbox-decline')!)
    await settle()
    expect(answers).toEqual([true])
    expect(yes.disabled).toBe(true)
  })

  it('a failed answer is shown and the buttons come back', async () => {
    const el = render(QuestionCard, {
      question,
      onanswer: async () => {
        throw new Error('no such question is waiting')
      },
    })
    click(one<HTMLButtonElement>(el, 'sandbox-decline')!)
    await settle()
    expect(el.textContent).toContain('no such question is waiting')
    expect(one<HTMLButtonElement>(el, 'sandbox-approve')!.disabled).toBe(false)
  })

  it('the card then says what the person chose, and offers a re-run only after a refusal', () => {
    const refused = { code: "shell('touch /x')", sandboxRefused: 'workspace mode: touch: Permission denied' }
    let el = render(ProgramBlock, { program: program({ ...refused, sandboxAsked: 'approved' }), onrerun: async () => {} })
    expect(one(el, 'sandbox-rerun')).toBeNull()
    expect(one(el, 'sandbox-asked')!.textContent).toContain('You approved running it without the sandbox')
    cleanup()
    el = render(ProgramBlock, { program: program({ ...refused, sandboxAsked: 'declined' }), onrerun: async () => {} })
    expect(one(el, 'sandbox-asked')!.textContent).toBe('You kept it refused')
    expect(one(el, 'sandbox-rerun')).not.toBeNull() // a change of mind: one re-run after the program
  })
})
