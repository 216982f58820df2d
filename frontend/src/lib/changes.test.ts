import { describe, expect, it } from 'vitest'
import { commentsMessage, figures, fileLabel, hunksRevertable, patchHunks, patchLines, sendLabel } from './changes'

describe('changes', () => {
  it('says N files changed +A −D', () => {
    expect(figures({ files: 1, added: 2, deleted: 0 })).toBe('1 file changed +2 −0')
    expect(figures({ files: 3, added: 12, deleted: 4 })).toBe('3 files changed +12 −4')
  })

  it('kinds a unified diff’s lines', () => {
    const p = 'diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n'
    expect(patchLines(p).map((l) => l.kind)).toEqual(['meta', 'meta', 'meta', 'meta', 'hunk', 'ctx', 'del', 'add'])
  })

  it('labels renames, binaries, too-large files and mode changes', () => {
    expect(fileLabel({ path: 'b', old_path: 'a', status: 'renamed', added: 0, deleted: 0 })).toBe('renamed a → b +0 −0')
    expect(fileLabel({ path: 'x.bin', status: 'binary', binary: true, added: 0, deleted: 0 })).toBe('binary x.bin binary')
    expect(fileLabel({ path: 'big', status: 'too-large', too_large: true, added: 0, deleted: 0 })).toBe('too-large big too large to keep')
    expect(fileLabel({ path: 's', status: 'modified', added: 0, deleted: 0, old_mode: '0600', new_mode: '0640' })).toBe('modified s +0 −0 · mode 0600 → 0640')
  })
})

describe('review in place', () => {
  const patch = 'diff --git a/f b/f\nindex 1..2 100644\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n@@ -10,2 +10,3 @@ func x\n ten\n+ten and a half\n eleven\n\\ No newline at end of file\n'

  it('numbers each hunk’s lines before and after the turn', () => {
    const { meta, hunks } = patchHunks(patch)
    expect(meta).toEqual(['diff --git a/f b/f', 'index 1..2 100644', '--- a/f', '+++ b/f'])
    expect(hunks.map((h) => h.index)).toEqual([0, 1])
    expect(hunks[0].lines.map((l) => [l.kind, l.old, l.new])).toEqual([
      ['ctx', 1, 1],
      ['del', 2, undefined],
      ['add', undefined, 2],
      ['ctx', 3, 3],
    ])
    expect(hunks[1].header).toBe('@@ -10,2 +10,3 @@ func x')
    expect(hunks[1].lines.map((l) => [l.kind, l.old, l.new])).toEqual([
      ['ctx', 10, 10],
      ['add', undefined, 11],
      ['ctx', 11, 12],
      ['meta', undefined, undefined],
    ])
  })

  it('offers hunks only for a modified text file’s whole patch', () => {
    const f = { path: 'f', status: 'modified', added: 2, deleted: 1, patch }
    expect(hunksRevertable(f)).toBe(true)
    expect(hunksRevertable({ ...f, status: 'added' })).toBe(false)
    expect(hunksRevertable({ ...f, old_path: 'e' })).toBe(false)
    expect(hunksRevertable({ ...f, patch_clipped: true })).toBe(false)
    expect(hunksRevertable({ ...f, patch: 'mode 0644 → 0600\n' })).toBe(false)
  })

  it('writes comments as a message with path:line references', () => {
    const msg = commentsMessage(3, [
      { path: 'src/a.go', line: 12, side: 'new', code: '+\tx := `1`', text: ' rename x \n' },
      { path: 'b.txt', line: 2, side: 'old', code: '-two', text: 'why removed?' },
    ])
    expect(msg).toBe(
      "Review comments on the changes of turn 3:\n\nsrc/a.go:12 — `x := '1'`\nrename x\n\nb.txt:2 (a deleted line, as before the turn) — `two`\nwhy removed?",
    )
    expect(sendLabel(1)).toBe('Send 1 comment')
    expect(sendLabel(2)).toBe('Send 2 comments')
  })
})
