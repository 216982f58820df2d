import { afterEach, describe, expect, it } from 'vitest'
import { externalLinks, renderMarkdown, setLinkOpener } from './markdown'
import { ansiToHtml, stripAnsi } from './ansi'
import { highlight } from './highlight'

function dom(html: string): HTMLElement {
  const el = document.createElement('div')
  el.innerHTML = html
  return el
}

describe('renderMarkdown', () => {
  it('renders raw HTML as text', () => {
    const el = dom(renderMarkdown('Hi <script>alert(1)</script> <img src=x onerror="alert(2)"> <b>bold</b>'))
    expect(el.querySelector('script, img, b')).toBeNull()
    expect(el.textContent).toContain('<script>alert(1)</script>')
    expect(el.textContent).toContain('<img src=x onerror="alert(2)">')
  })

  it('refuses javascript: links', () => {
    const el = dom(renderMarkdown('[x](javascript:alert(1))'))
    expect(el.querySelector('a')).toBeNull()
  })

  it('links bare URLs', () => {
    const a = dom(renderMarkdown('see https://example.org/docs')).querySelector('a')
    expect(a?.getAttribute('href')).toBe('https://example.org/docs')
    expect(a?.getAttribute('rel')).toBe('noopener noreferrer')
  })

  it('highlights Python code blocks and escapes others', () => {
    const el = dom(renderMarkdown('```python\ndef f():\n    return "<b>"\n```\n\n```sh\necho <b>\n```'))
    const blocks = el.querySelectorAll('pre')
    expect(blocks[0].querySelector('.hljs-keyword')?.textContent).toBe('def')
    expect(blocks[0].textContent).toContain('return "<b>"')
    expect(blocks[1].querySelector('b, span')).toBeNull()
    expect(blocks[1].textContent).toBe('echo <b>\n')
  })

  it('renders tables', () => {
    const el = dom(renderMarkdown('| a | b |\n|---|---|\n| 1 | 2 |'))
    expect([...el.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['1', '2'])
  })
})

describe('externalLinks', () => {
  afterEach(() => setLinkOpener((url) => window.open(url)))

  it('hands http links to the opener and never navigates', () => {
    const opened: string[] = []
    setLinkOpener((u) => opened.push(u))
    const el = dom(renderMarkdown('[docs](https://example.org/a) and [here](#frag)'))
    document.body.appendChild(el)
    const { destroy } = externalLinks(el)
    const clicks = [...el.querySelectorAll('a')].map((a) => {
      const e = new MouseEvent('click', { bubbles: true, cancelable: true })
      a.dispatchEvent(e)
      return e.defaultPrevented
    })
    expect(clicks).toEqual([true, true])
    expect(opened).toEqual(['https://example.org/a'])
    destroy()
    el.remove()
  })
})

describe('ansiToHtml', () => {
  it('colours with classes and escapes the text', () => {
    const el = dom(ansiToHtml('\x1b[31mred <b>\x1b[0m plain \x1b[1;32mgreen\x1b[0m'))
    expect(el.querySelector('b')).toBeNull()
    expect(el.textContent).toBe('red <b> plain green')
    expect(el.querySelector('.ansi-red-fg')?.textContent).toBe('red <b>')
    expect(el.querySelector('.ansi-green-fg')?.textContent).toBe('green')
  })

  it('does not carry colour from one output to the next', () => {
    ansiToHtml('\x1b[31mstill red?')
    expect(dom(ansiToHtml('plain')).querySelector('span.ansi-red-fg')).toBeNull()
  })

  it('strips sequences', () => {
    expect(stripAnsi('\x1b[31mred\x1b[0m \x1b]8;;https://x\x07link\x1b]8;;\x07')).toBe('red link')
  })
})

describe('highlight', () => {
  it('colours Python and escapes', () => {
    const el = dom(highlight("for x in ls('.'):\n    print(x) # <i>"))
    expect(el.querySelector('.hljs-keyword')?.textContent).toBe('for')
    expect(el.querySelector('i')).toBeNull()
    expect(el.textContent).toBe("for x in ls('.'):\n    print(x) # <i>")
  })

  it('escapes what it does not know', () => {
    expect(highlight('<x>', 'cobol')).toBe('&lt;x&gt;')
  })

  it('renders command output line by line: /help\'s code spans, /goal\'s lines', () => {
    const help = renderMarkdown('Commands:\n- `/goal` — set a goal\n  /goal <objective>\n', true)
    expect(help).toContain('<code>/goal</code>')
    expect(help).not.toContain('`')
    expect(renderMarkdown('Goal: x\nStatus: active', true)).toContain('Goal: x<br>')
    expect(renderMarkdown('a\nb')).not.toContain('<br>')
  })
})
