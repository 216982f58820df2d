// The model's answers and prose as Markdown: markdown-it with raw HTML off
// (a <script> or <img onerror> in an answer comes out as text), bare URLs
// linked, code blocks highlighted (Python coloured, others escaped). Links
// carry rel="noopener noreferrer"; the component that shows the HTML
// intercepts clicks (links open in the system browser, never in the window).
import markdownit from 'markdown-it'
import type { MarkdownIt, RendererRule } from 'markdown-it'
import { escapeHtml, highlight, knownLanguage } from './highlight'

function make(breaks: boolean): MarkdownIt {
  const md: MarkdownIt = markdownit({
    html: false,
    linkify: true,
    breaks,
    highlight: (code: string, lang: string): string => {
      const l = (lang || '').trim().split(/\s+/)[0]
      if (!knownLanguage(l)) return '' // markdown-it escapes it
      return `<pre class="hljs"><code class="language-${escapeHtml(l)}">${highlight(code, l)}</code></pre>`
    },
  })
  const defaultLinkOpen: RendererRule =
    md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options))
  const linkOpen: RendererRule = (tokens, idx, options, env, self) => {
    tokens[idx].attrSet('rel', 'noopener noreferrer')
    return defaultLinkOpen(tokens, idx, options, env, self)
  }
  md.renderer.rules.link_open = linkOpen
  return md
}

const md = make(false)
// The engine's command output (/help, /goal): Markdown written line by
// line, so each line break is kept.
const lined = make(true)

/**
 * HTML for a Markdown text. Safe to insert: raw HTML is escaped, javascript:
 * links are refused. lines keeps every line break (command output).
 */
export function renderMarkdown(src: string, lines = false): string {
  return (lines ? lined : md).render(src)
}

/**
 * The URL a click should open outside the window, or "" when the click is
 * not on a link we open (in-page anchors, unknown schemes). Callers always
 * prevent the default navigation when the click is on a link.
 */
export function externalHref(a: HTMLAnchorElement): string {
  const href = a.getAttribute('href') ?? ''
  return /^(https?:|mailto:)/i.test(href) ? href : ''
}

let opener: (url: string) => void = (url) => {
  window.open(url, '_blank', 'noopener,noreferrer')
}

/**
 * Sets how a link is opened outside the window (the window's bridge passes
 * the Wails runtime's BrowserOpenURL). The default asks the page for a new
 * window, which the desktop webview may ignore; it never navigates the page.
 */
export function setLinkOpener(f: (url: string) => void): void {
  opener = f
}

/**
 * A Svelte action: clicks on links inside node never navigate the window;
 * http(s) and mailto links are handed to the link opener.
 */
export function externalLinks(node: HTMLElement): { destroy: () => void } {
  const onclick = (e: MouseEvent) => {
    const a = (e.target as Element | null)?.closest?.('a')
    if (!a || !node.contains(a)) return
    e.preventDefault()
    const url = externalHref(a)
    if (url) opener(url)
  }
  node.addEventListener('click', onclick)
  return { destroy: () => node.removeEventListener('click', onclick) }
}
