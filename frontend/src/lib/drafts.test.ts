import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DraftStore, draftKey, emptyDraft, joinBack, MAX_DRAFTS, parse, serialize, STORAGE_KEY, type Draft, type KeyValue } from './drafts'
import type { Attachment } from './attach'

class MemoryStorage implements KeyValue {
  data = new Map<string, string>()
  writes = 0
  getItem(k: string) {
    return this.data.get(k) ?? null
  }
  setItem(k: string, v: string) {
    this.writes++
    this.data.set(k, v)
  }
  removeItem(k: string) {
    this.data.delete(k)
  }
}

const img = (id: number): Attachment => ({ id, name: `p${id}.png`, path: '', dataUrl: 'data:image/png;base64,AAAA' })
const draft = (text: string, images: Attachment[] = []): Draft => ({ ...emptyDraft(), text, images })

describe('draftKey', () => {
  it('is the session id, or new: and the folder for a session not yet created', () => {
    expect(draftKey('s1', '/w')).toBe('s1')
    expect(draftKey('', '/home/me/proj')).toBe('new:/home/me/proj')
  })
})

describe('joinBack', () => {
  it('puts texts that come back before the draft, oldest first, blank-line separated, blank parts left out', () => {
    expect(joinBack(['first, edited', 'second\n', '  '], 'draft')).toBe('first, edited\n\nsecond\n\ndraft')
    expect(joinBack(['first', 'second'], '  ')).toBe('first\n\nsecond')
    expect(joinBack([], 'only')).toBe('only')
    expect(joinBack(['back'], '')).toBe('back')
  })
})

describe('DraftStore', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('keeps each key apart: stash one, restore another, come back', () => {
    const s = new DraftStore(null)
    s.put('a', draft('draft of A', [img(1)]))
    s.put('new:/w', draft('draft of B'))
    expect(s.get('a').text).toBe('draft of A')
    expect(s.get('a').images.map((i) => i.id)).toEqual([1])
    expect(s.get('new:/w').text).toBe('draft of B')
    expect(s.get('new:/w').images).toEqual([])
    expect(s.get('other')).toEqual(emptyDraft())
  })

  it('persists the text, debounced, and restores it with the images lost counted', () => {
    const st = new MemoryStorage()
    const s = new DraftStore(st, { delayMs: 250 })
    s.put('a', draft('hello', [img(1)]))
    s.put('a', draft('hello again', [img(1)]))
    expect(st.writes, 'nothing written before the delay').toBe(0)
    vi.advanceTimersByTime(250)
    expect(st.writes, 'one write for both changes').toBe(1)
    expect(st.getItem(STORAGE_KEY)).not.toContain('base64')

    const back = new DraftStore(st).get('a')
    expect(back.text).toBe('hello again')
    expect(back.images).toEqual([])
    expect(back.lostImages).toBe(1)
    expect(JSON.parse(st.getItem(STORAGE_KEY)!).drafts.a, 'no queue is stored: the queue is the engine\'s').not.toHaveProperty('queue')
  })

  it("an earlier version's stored queue comes back in the draft's text, before it, and is not sent", () => {
    const st = new MemoryStorage()
    st.data.set(
      STORAGE_KEY,
      JSON.stringify({
        v: 1,
        drafts: {
          a: { text: 'half written', queue: ['first', 'second'], images: 2, updated: 5 },
          b: { text: '', queue: ['only queued'], images: 0, updated: 6 },
          c: { text: 'no queue', queue: [], images: 0, updated: 7 },
        },
      }),
    )
    const s = new DraftStore(st)
    expect(s.get('a')).toMatchObject({ text: 'first\n\nsecond\n\nhalf written', lostImages: 2 })
    expect(s.get('b').text).toBe('only queued')
    expect(s.get('c').text).toBe('no queue')
  })

  it('flush writes at once; an emptied draft is removed from storage', () => {
    const st = new MemoryStorage()
    const s = new DraftStore(st)
    s.put('a', draft('x'))
    s.flush()
    expect(new DraftStore(st).get('a').text).toBe('x')
    s.put('a', emptyDraft())
    s.flush()
    expect(st.getItem(STORAGE_KEY)).toBeNull()
  })

  it('flush with nothing unsaved leaves storage alone (another writer is not overwritten)', () => {
    const st = new MemoryStorage()
    const s = new DraftStore(st)
    s.put('a', draft('mine'))
    s.flush()
    st.data.set(STORAGE_KEY, 'written by someone else')
    s.flush()
    expect(st.getItem(STORAGE_KEY)).toBe('written by someone else')
  })

  it.each([
    ['not JSON', '{"v":1,"drafts":'],
    ['another version', JSON.stringify({ v: 2, drafts: { a: { text: 'x', images: 0, updated: 1 } } })],
    ['not an object', '"hello"'],
    ['drafts is an array', JSON.stringify({ v: 1, drafts: [1, 2] })],
    ['null', 'null'],
  ])('ignores a corrupt stored value (%s)', (_, raw) => {
    const st = new MemoryStorage()
    st.data.set(STORAGE_KEY, raw)
    const s = new DraftStore(st)
    expect(s.keys()).toEqual([])
    s.put('a', draft('fresh'))
    s.flush()
    expect(new DraftStore(st).get('a').text).toBe('fresh')
  })

  it('skips malformed entries and keeps the good ones', () => {
    const raw = JSON.stringify({
      v: 1,
      drafts: {
        good: { text: 'kept', images: 0, updated: 5 },
        oldGood: { text: 'kept', queue: ['q'], images: 0, updated: 5 },
        badText: { text: 3, images: 0, updated: 1 },
        badQueue: { text: 'x', queue: [1], images: 0, updated: 1 },
        queueNotArray: { text: 'x', queue: 'q', images: 0, updated: 1 },
        bare: { text: 'x' },
        blank: { text: '  ', images: 0, updated: 1 },
        nothing: null,
        negativeImages: { text: 'y', images: -4, updated: 'z' },
      },
    })
    const got = parse(raw)
    expect([...got.keys()].sort()).toEqual(['bare', 'good', 'negativeImages', 'oldGood'])
    expect(got.get('negativeImages')!.lostImages).toBe(0)
  })

  it('survives storage that throws on read and on write', () => {
    const st: KeyValue = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
      removeItem: () => {},
    }
    const s = new DraftStore(st)
    s.put('a', draft('still here'))
    expect(() => s.flush()).not.toThrow()
    expect(s.get('a').text).toBe('still here')
  })

  it('keeps at most max drafts, dropping the least recently changed', () => {
    let t = 0
    const st = new MemoryStorage()
    const s = new DraftStore(st, { max: 3, now: () => ++t })
    for (const k of ['a', 'b', 'c', 'd']) s.put(k, draft(k))
    s.put('b', draft('b changed'))
    s.put('e', draft('e'))
    expect(s.keys().sort()).toEqual(['b', 'd', 'e'])
    s.flush()
    expect(Object.keys(JSON.parse(st.getItem(STORAGE_KEY)!).drafts).sort()).toEqual(['b', 'd', 'e'])
  })

  it('caps what it reads too (MAX_DRAFTS by default)', () => {
    const drafts = new Map<string, Draft>()
    for (let i = 0; i < MAX_DRAFTS + 5; i++) drafts.set(`s${i}`, { ...draft(`t${i}`), updated: i })
    const got = parse(serialize(drafts, 10_000))
    expect(got.size).toBe(MAX_DRAFTS)
    expect(got.has('s0')).toBe(false)
    expect(got.has(`s${MAX_DRAFTS + 4}`)).toBe(true)
  })

  it('update changes a draft and returns it', () => {
    const s = new DraftStore(null)
    s.put('a', draft('one'))
    expect(s.update('a', (d) => ({ ...d, text: joinBack(['back'], d.text) })).text).toBe('back\n\none')
    expect(s.get('a').text).toBe('back\n\none')
  })

  it('rename moves a new session draft to its id; resolve follows it until the key is claimed', () => {
    const s = new DraftStore(null)
    s.put('new:/w', draft('second message'))
    s.rename('new:/w', 'id1')
    expect(s.get('new:/w')).toEqual(emptyDraft())
    expect(s.get('id1').text).toBe('second message')
    expect(s.resolve('new:/w')).toBe('id1')
    s.claim('new:/w')
    expect(s.resolve('new:/w')).toBe('new:/w')
  })

  it('a deleted session draft is gone and a late stash does not bring it back', () => {
    const st = new MemoryStorage()
    const s = new DraftStore(st)
    s.put('a', draft('x'))
    s.put('b', draft('y'))
    s.delete('a')
    s.put('a', draft('late stash'))
    s.flush()
    const back = new DraftStore(st)
    expect(back.keys()).toEqual(['b'])
  })

  it('goes to the holder for the key it shows', () => {
    const s = new DraftStore(null)
    let live = draft('live text')
    const off = s.hold({ key: () => 'a', get: () => live, set: (d) => (live = d) })
    s.put('a', draft('stale'))
    expect(s.get('a').text).toBe('live text')
    s.update('a', (d) => ({ ...d, text: joinBack(['refused'], d.text) }))
    expect(live.text).toBe('refused\n\nlive text')
    off()
    expect(s.get('a').text).toBe('refused\n\nlive text')
  })

  it('keeps one holder per pane: each key goes to the composer that shows it', () => {
    const s = new DraftStore(null)
    let left = draft('left pane')
    let right = draft('right pane')
    const offLeft = s.hold({ key: () => 'a', get: () => left, set: (d) => (left = d) })
    const offRight = s.hold({ key: () => 'b', get: () => right, set: (d) => (right = d) })
    expect(s.get('a').text).toBe('left pane')
    expect(s.get('b').text).toBe('right pane')
    s.update('b', (d) => ({ ...d, text: 'queued back' }))
    expect(right.text).toBe('queued back')
    expect(left.text).toBe('left pane')
    // A new session's key renamed to its id still reaches the pane that shows it.
    s.rename('b', 'sess-2')
    expect(s.get('sess-2').text).toBe('queued back')
    offRight()
    s.put('b', draft('stored'))
    expect(s.get('sess-2').text).toBe('queued back')
    offLeft()
    // Let go without a stash: what the left pane held was never stored.
    expect(s.get('a').text).toBe('')
  })
})
