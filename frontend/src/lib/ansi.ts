// Terminal colours in program output: ANSI SGR sequences become spans with
// ansi_up's classes (themed in OutputBlock for light and dark), every other
// character is HTML-escaped, other escape sequences are dropped. OSC 8
// hyperlinks become <a> elements for http(s) only; the page intercepts clicks
// on them (they never navigate the window).
import { AnsiUp } from 'ansi_up'

/** HTML for text that may hold ANSI escape sequences. Each call starts from the default state. */
export function ansiToHtml(text: string): string {
  const au = new AnsiUp()
  au.use_classes = true
  au.escape_html = true
  return au.ansi_to_html(text)
}

/** text without ANSI escape sequences (for copying and measuring). */
export function stripAnsi(text: string): string {
  // CSI ... final byte, OSC ... BEL/ST, and lone two-byte escapes.
  // eslint-disable-next-line no-control-regex
  return text.replace(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g, '')
}
