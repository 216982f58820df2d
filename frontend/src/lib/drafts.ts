// Drafts: what the composer holds for each session (its text and attached
// images), kept apart per session and across reloads. The queue of messages
// written while a turn runs is not a draft's: it is the engine's (persisted
// in its database, shown from the transcript view, see transcript.ts).
//
// Key: the session id, or `new:` + workspace path for the session not yet
// created in a folder (draftKey). The composer stashes the open session's
// draft here on every change and restores the next one's on a switch.
//
// Persistence: the draft's text only, in one storage value under
// STORAGE_KEY, written at most SAVE_DELAY_MS after a change (flush() writes
// unsaved changes at once: call it when the page goes away; with none it
// writes nothing, so it never overwrites a value it has no news for).
// Images are not stored (data: URLs are too big); a restored draft counts
// the images it lost (lostImages) so the composer can say so. At most
// MAX_DRAFTS keys are kept, the least recently changed dropped first.
// Storage that is missing, throws, or holds a value this version cannot read
// is ignored: drafts then live for the page only.
//
// Stored drafts of earlier versions also carry `queue` (the texts the page
// queued itself then): those texts are put into the draft's text, before
// it, blank-line separated (joinBack), so nothing a person wrote is lost;
// they are not sent by themselves.
//
// The composer holds the shown draft's state itself (hold): for that key,
// get and update go to the composer's live state, so a change made from
// outside (a refused send put back after the person opened that session)
// is never lost to, or overwritten by, what the composer has not stashed yet.
// Single-threaded (the page's); across pages the last one to write wins.
import type { Attachment } from './attach'

export const STORAGE_KEY = 'vis.drafts.v1'
export const MAX_DRAFTS = 200
export const SAVE_DELAY_MS = 250

export interface Draft {
  text: string
  images: Attachment[]
  /** Images a reload dropped (images are not stored); 0 when none. */
  lostImages: number
  /** When it last changed (ms since the epoch); the cap drops the oldest. */
  updated: number
}

/** The subset of the Web Storage API the store uses. */
export interface KeyValue {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

interface StoredDraft {
  text: string
  /** Written by earlier versions only (see the file comment). */
  queue?: string[]
  /** Images the draft had (not stored). */
  images: number
  updated: number
}

interface Stored {
  v: 1
  drafts: Record<string, StoredDraft>
}

/** The draft key of a session, or of the new session of workspace when sessionId is ''. */
export function draftKey(sessionId: string, workspace: string): string {
  return sessionId || `new:${workspace}`
}

/** The folder of the draft key of a session not created yet; null for a session's own key. */
export function newFolder(key: string): string | null {
  return key.startsWith('new:') ? key.slice('new:'.length) : null
}

export function emptyDraft(): Draft {
  return { text: '', images: [], lostImages: 0, updated: 0 }
}

/** True when the draft holds nothing worth keeping. */
export function isEmpty(d: Draft): boolean {
  return !d.text.trim() && !d.images.length && !d.lostImages
}

/**
 * The composer's text after texts come back to it (a Stop hands back the
 * queue, a send was refused): those texts, oldest first, then the draft,
 * separated by blank lines (blank parts left out).
 */
export function joinBack(texts: readonly string[], draft: string): string {
  return [...texts, draft]
    .map((t) => t.replace(/\s+$/, ''))
    .filter((t) => t.trim() !== '')
    .join('\n\n')
}

/** The stored form of drafts: text only, at most max keys (the most recently changed). */
export function serialize(drafts: ReadonlyMap<string, Draft>, max = MAX_DRAFTS): string {
  const kept = [...drafts].filter(([, d]) => !isEmpty(d)).sort((a, b) => b[1].updated - a[1].updated).slice(0, max)
  const out: Stored = { v: 1, drafts: {} }
  for (const [k, d] of kept) {
    out.drafts[k] = { text: d.text, images: d.images.length + d.lostImages, updated: d.updated }
  }
  return JSON.stringify(out)
}

const isStr = (x: unknown): x is string => typeof x === 'string'
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x) && x >= 0

/**
 * Drafts read back from their stored form: images as a count of lost ones,
 * an earlier version's queued texts in the text (see the file comment). A
 * value that is not this version's is ignored (an empty map); an entry that
 * is malformed is skipped.
 */
export function parse(raw: string | null, max = MAX_DRAFTS): Map<string, Draft> {
  const out = new Map<string, Draft>()
  if (!raw) return out
  let data: unknown
  try {
    data = JSON.parse(raw)
  } catch {
    return out
  }
  if (!data || typeof data !== 'object' || (data as Stored).v !== 1) return out
  const drafts = (data as Stored).drafts
  if (!drafts || typeof drafts !== 'object' || Array.isArray(drafts)) return out
  for (const [k, e] of Object.entries(drafts)) {
    if (!k || !e || typeof e !== 'object') continue
    const { text, queue, images, updated } = e as Partial<StoredDraft>
    if (!isStr(text) || (queue !== undefined && (!Array.isArray(queue) || !queue.every(isStr)))) continue
    const d: Draft = {
      text: queue?.length ? joinBack(queue, text) : text,
      images: [],
      lostImages: isCount(images) ? Math.floor(images) : 0,
      updated: isCount(updated) ? updated : 0,
    }
    if (!isEmpty(d)) out.set(k, d)
  }
  return prune(out, max)
}

function prune(drafts: Map<string, Draft>, max: number): Map<string, Draft> {
  if (drafts.size <= max) return drafts
  const drop = [...drafts].sort((a, b) => a[1].updated - b[1].updated).slice(0, drafts.size - max)
  for (const [k] of drop) drafts.delete(k)
  return drafts
}

/** The composer's live state of the draft it shows. */
export interface Holder {
  /** The key shown (before following renames). */
  key(): string
  get(): Draft
  set(d: Draft): void
}

export interface StoreOptions {
  max?: number
  delayMs?: number
  now?: () => number
}

/** The drafts of every session, persisted to storage (see the file comment). */
export class DraftStore {
  private drafts: Map<string, Draft>
  private renamed = new Map<string, string>()
  /** Keys of deleted sessions: a late stash must not bring them back. */
  private deleted = new Set<string>()
  /** The composers' live states (one per pane). */
  private holders = new Set<Holder>()
  private timer: ReturnType<typeof setTimeout> | null = null
  private readonly storage: KeyValue | null
  private readonly max: number
  private readonly delayMs: number
  private readonly now: () => number

  /** storage null keeps drafts for the page only. */
  constructor(storage: KeyValue | null, o: StoreOptions = {}) {
    this.storage = storage
    this.max = o.max ?? MAX_DRAFTS
    this.delayMs = o.delayMs ?? SAVE_DELAY_MS
    this.now = o.now ?? Date.now
    let raw: string | null = null
    try {
      raw = storage?.getItem(STORAGE_KEY) ?? null
    } catch {
      // Storage refused (private mode, a scheme without storage): page-only drafts.
    }
    this.drafts = parse(raw, this.max)
  }

  /** The draft of key (an empty one when there is none); the caller may keep it. */
  get(key: string): Draft {
    const h = this.holderOf(key)
    if (h) return h.get()
    const d = this.drafts.get(key)
    return d ? { ...d, images: [...d.images] } : emptyDraft()
  }

  /** The keys holding a draft. */
  keys(): string[] {
    return [...this.drafts.keys()]
  }

  /** Stores key's draft (the holder stashing its own state). */
  put(key: string, d: Draft): void {
    this.set(key, d)
  }

  /** Changes key's draft with f (the holder's live state when it shows key); returns the new draft. */
  update(key: string, f: (d: Draft) => Draft): Draft {
    const d = f(this.get(key))
    this.holderOf(key)?.set(d)
    this.set(key, d)
    return d
  }

  /**
   * Makes h the live state of the key it shows (a composer; each pane's
   * composer holds its own); returns the function that lets go.
   */
  hold(h: Holder): () => void {
    this.holders.add(h)
    return () => {
      this.holders.delete(h)
    }
  }

  /**
   * Moves from's draft to to (a new session got its id): the composer showing
   * from keeps its state under to. resolve(from) is to afterwards.
   */
  rename(from: string, to: string): void {
    if (from === to) return
    const d = this.drafts.get(from)
    this.drafts.delete(from)
    if (d) this.set(to, d)
    this.renamed.set(from, to)
    this.schedule()
  }

  /** The key that key's draft lives under now (following renames). */
  resolve(key: string): string {
    const seen = new Set<string>()
    while (this.renamed.has(key) && !seen.has(key)) {
      seen.add(key)
      key = this.renamed.get(key)!
    }
    return key
  }

  /** Makes key a draft of its own again (the person opened it): resolve(key) is key. */
  claim(key: string): void {
    this.renamed.delete(key)
  }

  /** Forgets key's draft (its session was deleted). */
  delete(key: string): void {
    this.deleted.add(key)
    if (!this.drafts.delete(key)) return
    this.schedule()
  }

  /** Writes unsaved changes to storage now (nothing when every change is saved). */
  flush(): void {
    if (this.timer === null || !this.storage) return
    clearTimeout(this.timer)
    this.timer = null
    try {
      if (this.drafts.size) this.storage.setItem(STORAGE_KEY, serialize(this.drafts, this.max))
      else this.storage.removeItem(STORAGE_KEY)
    } catch {
      // Full or refused: the drafts stay for this page.
    }
  }

  private set(key: string, d: Draft): void {
    if (this.deleted.has(key)) return
    const old = this.drafts.get(key)
    if (isEmpty(d)) {
      if (!old) return
      this.drafts.delete(key)
    } else {
      if (old && same(old, d)) return
      this.drafts.delete(key) // re-inserted last: the map stays in change order
      this.drafts.set(key, { ...d, updated: this.now() })
      prune(this.drafts, this.max)
    }
    this.schedule()
  }

  private schedule(): void {
    if (!this.storage || this.timer !== null) return
    this.timer = setTimeout(() => this.flush(), this.delayMs)
  }

  private holderOf(key: string): Holder | undefined {
    for (const h of this.holders) if (this.resolve(h.key()) === key) return h
    return undefined
  }
}

function same(a: Draft, b: Draft): boolean {
  return (
    a.text === b.text &&
    a.lostImages === b.lostImages &&
    a.images.length === b.images.length &&
    a.images.every((x, i) => x === b.images[i])
  )
}

/** The page's localStorage, or null when it is missing or refuses access. */
export function browserStorage(): KeyValue | null {
  try {
    const s = globalThis.localStorage
    return s && typeof s.getItem === 'function' ? s : null
  } catch {
    return null
  }
}
