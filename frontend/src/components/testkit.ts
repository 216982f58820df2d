// Helpers for the chrome's component tests: mount into the document, find by
// data-testid, type and press keys the way a person does.
import { flushSync, mount, unmount, type Component } from 'svelte'

let mounted: ReturnType<typeof mount>[] = []

export function render<P extends Record<string, unknown>>(c: Component<P>, props: P): HTMLElement {
  const target = document.createElement('div')
  document.body.appendChild(target)
  mounted.push(mount(c, { target, props }))
  flushSync()
  return target
}

export function cleanup() {
  for (const m of mounted) unmount(m)
  mounted = []
  document.body.innerHTML = ''
}

export const one = <T extends HTMLElement = HTMLElement>(el: ParentNode, id: string) =>
  el.querySelector(`[data-testid="${id}"]`) as T | null
export const all = <T extends HTMLElement = HTMLElement>(el: ParentNode, id: string) =>
  [...el.querySelectorAll(`[data-testid="${id}"]`)] as T[]

export function type(el: HTMLInputElement | HTMLTextAreaElement | null, value: string) {
  if (!el) throw new Error('no element to type into')
  el.value = value
  el.dispatchEvent(new Event('input', { bubbles: true }))
  flushSync()
}

export function press(el: Element | null, key: string, opts: KeyboardEventInit = {}): KeyboardEvent {
  if (!el) throw new Error(`no element to press ${key} on`)
  const e = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...opts })
  el.dispatchEvent(e)
  flushSync()
  return e
}

export function click(el: Element | null) {
  if (!el) throw new Error('no element to click')
  ;(el as HTMLElement).click()
  flushSync()
}

/** Lets pending promises (fake API calls) settle. */
export async function settle() {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0))
  flushSync()
}
