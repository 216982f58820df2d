// Syntax highlighting for programs and Markdown code blocks: highlight.js
// core with the Python grammar only (Starlark is a Python dialect), so the
// bundle stays small. Output is HTML whose text is escaped by highlight.js;
// languages other than Python come back escaped and uncoloured.
import hljs from 'highlight.js/lib/core'
import python from 'highlight.js/lib/languages/python'

hljs.registerLanguage('python', python)
hljs.registerAliases(['py', 'starlark', 'star', 'bzl'], { languageName: 'python' })

/** Escapes text for use as HTML element content or attribute value. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string)
}

/** Code beyond this size is shown escaped but not coloured (highlighting is linear but not free). */
export const HIGHLIGHT_LIMIT = 200_000

/** True when lang names a grammar we colour. */
export function knownLanguage(lang: string): boolean {
  return !!lang && !!hljs.getLanguage(lang.toLowerCase())
}

/** HTML for code in lang ("python" when unnamed). Unknown languages are escaped only. */
export function highlight(code: string, lang = 'python'): string {
  const l = lang.toLowerCase()
  if (code.length > HIGHLIGHT_LIMIT || !knownLanguage(l)) return escapeHtml(code)
  try {
    return hljs.highlight(code, { language: l, ignoreIllegals: true }).value
  } catch {
    return escapeHtml(code)
  }
}
