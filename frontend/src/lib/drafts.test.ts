import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { DraftStore, draftKey, emptyDraft, MAX_DRAFTS, parse, sendNext, serialize, STORAGE_KEY, type Draft, type KeyValue } from './drafts'
import { enqueue, held, release } from './queue'
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
const draft = (text: string, queued: string[] = [], images: Attachment[] = []): Draft => ({
  ...emptyDraft(),
  text,
  images,
  queue: queued.reduce((q, t) => enqueue(q, t), enqueue([], '')),
})
const texts = (d: Draft) => d.queue.map((m) => m.text)

describe('draftKey', () => {
  it('is the session id, or new: and the folder for a session not yet created', () => {
    expect(draftKey('s1', '/w')).toBe('s1')
    expect(draftKey('', '/home/me/proj')).toBe('new:/home/me/proj')
  })
})

describe('DraftStore', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('keeps each key apart: stash one, restore another, come back', () => {
    const s = new DraftStore(null)
    s.put('a', draft('draft of A', ['queued in A']))
    s.put('new:/w', draft('draft of B'))
    expect(s.get('a').text).toBe('draft of A')
    expect(texts(s.get('a'))).toEqual(['queued in A'])
    expect(s.get('new:/w').text).toBe('draft of B')
    expect(texts(s.get('new:/w'))).toEqual([])
    expect(s.get('other')).toEqual(emptyDraft())
  })

  it('persists text and queued texts, debounced, and restores them marked restored with the images lost counted', () => {
    const st = new MemoryStorage()
    const s = new DraftStore(st, { delayMs: 250 })
    s.put('a', draft('hello', ['one', 'two'], [img(1)]))
    s.put('a', draft('hello again', ['one', 'two'], [img(1)]))
    expect(st.writes, 'nothing written before the delay').toBe(0)
    vi.advanceTimersByTime(250)
    expect(st.writes, 'one write for both changes').toBe(1)
    expect(st.getItem(STORAGE_KEY)).not.toContain('base64')

    const back = new DraftStore(st).get('a')
    expect(back.text).toBe('hello again')
    expect(texts(back)).toEqual(['one', 'two'])
    expect(back.queue.every((m) => m.restored)).toBe(true)
    expect(held(back.queue)).toBe(true)
    expect(held(release(back.queue))).toBe(false)
    expect(back.images).toEqual([])
    expect(back.lostImages).toBe(1)
  })

  it('counts images of queued messages as lost too', () => {
    const st = new MemoryStorage()
    const s = new DraftStore(st)
    s.put('a', { ...emptyDraft(), queue: enqueue([], 'look', [img(1), img(2)]) })
    s.flush()
    expect(new DraftStore(st).get('a').lostImages).toBe(2)
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
    ['another version', JSON.stringify({ v: 2, drafts: { a: { text: 'x', queue: [], images: 0, updated: 1 } } })],
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
        good: { text: 'kept', queue: ['q'], images: 0, updated: 5 },
        badText: { text: 3, queue: [], images: 0, updated: 1 },
        badQueue: { text: 'x', queue: [1], images: 0, updated: 1 },
        noQueue: { text: 'x' },
        nothing: null,
        negativeImages: { text: 'y', queue: [], images: -4, updated: 'z' },
      },
    })
    const got = parse(raw)
    expect([...got.keys()].sort()).toEqual(['good', 'negativeImages'])
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

  it('shift takes the oldest queued message; update changes a draft', () => {
    const s = new DraftStore(null)
    s.put('a', draft('', ['one', 'two']))
    expect(s.shift('a')!.text).toBe('one')
    expect(texts(s.get('a'))).toEqual(['two'])
    s.update('a', (d) => ({ ...d, text: 'typed' }))
    expect(s.get('a').text).toBe('typed')
    expect(s.shift('empty')).toBeUndefined()
  })

  it('rename moves a new session draft to its id; resolve follows it until the key is claimed', () => {
    const s = new DraftStore(null)
    s.put('new:/w', draft('first message', ['queued']))
    s.rename('new:/w', 'id1')
    expect(s.get('new:/w')).toEqual(emptyDraft())
    expect(texts(s.get('id1'))).toEqual(['queued'])
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
    let live = draft('live text', ['q1', 'q2'])
    const off = s.hold({ key: () => 'a', get: () => live, set: (d) => (live = d) })
    s.put('a', draft('stale'))
    expect(s.get('a').text).toBe('live text')
    expect(s.shift('a')!.text).toBe('q1')
    expect(texts(live)).toEqual(['q2'])
    off()
    expect(texts(s.get('a'))).toEqual(['q2'])
  })
})

describe('sendNext', () => {
  it('sends one message per call, oldest first, into the key it was queued in', async () => {
    const s = new DraftStore(null)
    s.put('a', draft('typing', ['one', 'two']))
    s.put('b', draft('', ['other']))
    const sent: string[] = []
    const submit = async (m: { text: string }) => void sent.push(m.text)
    expect(await sendNext(s, 'a', submit)).toMatchObject({ sent: { text: 'one' } })
    expect(sent).toEqual(['one'])
    expect(await sendNext(s, 'a', submit)).toMatchObject({ sent: { text: 'two' } })
    expect(await sendNext(s, 'a', submit)).toBeNull()
    expect(sent).toEqual(['one', 'two'])
    expect(s.get('a').text).toBe('typing')
    expect(texts(s.get('b'))).toEqual(['other'])
  })

  it('a turn that ended releases messages a reload brought back', async () => {
    const st = new MemoryStorage()
    const before = new DraftStore(st)
    before.put('a', draft('', ['restored one', 'restored two']))
    before.flush()
    const s = new DraftStore(st)
    const r = await sendNext(s, 'a', async () => {})
    expect(r).toMatchObject({ sent: { text: 'restored one' } })
    expect(s.get('a').queue.some((m) => m.restored)).toBe(false)
  })

  it('a refusal puts that message and the rest of the queue back into the draft, in order', async () => {
    const s = new DraftStore(null)
    s.put('a', { ...draft('draft', []), queue: enqueue(enqueue([], 'one', [img(1)]), 'two', [img(2)]), images: [img(3)] })
    const r = await sendNext(s, 'a', async () => {
      throw new Error('a turn is already running')
    })
    expect(r && 'refused' in r && (r.error as Error).message).toBe('a turn is already running')
    const d = s.get('a')
    expect(d.text).toBe('one\n\ntwo\n\ndraft')
    expect(d.queue).toEqual([])
    expect(d.images.map((i) => i.id)).toEqual([1, 2, 3])
  })
})
