import { describe, expect, it } from 'vitest'
import { figures, fileLabel, patchLines } from './changes'

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
