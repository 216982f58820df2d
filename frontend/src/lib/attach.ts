// Images the person attaches to a message before sending it: files dropped
// on the window (their paths come from Go: Linux gives the page no drop
// events), images pasted from the clipboard and files picked with the
// button (read here as data: URLs). An image pasted where the web view hands
// the page no file (WebKitGTK) is read by Go from the system clipboard and
// comes as a dropped file (a path). The engine decides what each one is by
// its bytes: the page asks it (CheckImages) as images are added and shows
// each verdict on the chip (applyVerdicts); it refuses only what it can see
// is too big, before reading it.

/** What intake refuses anyway (app.MaxImageBytes, attach.DefaultMaxIntakeBytes). */
export const MAX_IMAGE_BYTES = 25 << 20

export interface Attachment {
  id: number
  name: string
  /** A dropped file's absolute path ('' for pasted and picked images). */
  path: string
  /** A pasted or picked image as a data: URL ('' for dropped files). */
  dataUrl: string
  /**
   * Why Send will not attach it (the engine's words, or the page's for a
   * file too big to read); undefined = attached, or not checked yet.
   */
  reason?: string
  /** False when it is attached but only named: the model has no vision. */
  sent?: boolean
}

/** What Send will do with one image (app.ImageVerdict). */
export interface ImageVerdict {
  reason: string
  sent: boolean
}

/** What the chip of a model without vision says. */
export const NAMED_NOT_SENT = 'will be named, not sent (the model has no vision)'

/** Whether an attachment carries something to send (a file too big to read does not). */
export function sendable(a: Attachment): boolean {
  return !!(a.path || a.dataUrl)
}

/**
 * The attachments with the engine's verdicts on them: verdicts[i] is for the
 * i-th of checked (by id); an attachment not among them keeps its own.
 */
export function applyVerdicts(list: Attachment[], checked: readonly Attachment[], verdicts: readonly ImageVerdict[]): Attachment[] {
  const byId = new Map<number, ImageVerdict>()
  checked.forEach((a, i) => {
    const v = verdicts[i]
    if (v) byId.set(a.id, v)
  })
  return list.map((a) => {
    const v = byId.get(a.id)
    return v ? { ...a, reason: v.reason || undefined, sent: v.reason ? undefined : v.sent } : a
  })
}

/**
 * What the Go side takes and Stop hands back (app.ImageInput): a dropped
 * file's path, or the bytes as a data: URL ("data:image/png;base64,...").
 */
export interface ImageInput {
  path: string
  name: string
  data_base64: string
}

let nextId = 1

export function toInput(a: Attachment): ImageInput {
  return { path: a.path, name: a.name, data_base64: a.dataUrl }
}

/** The last part of a path, either separator. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter(Boolean)
  return parts[parts.length - 1] ?? path
}

/** Where the window serves a dropped file's preview (app.DroppedPath). */
export function droppedPreview(path: string): string {
  return '/vis/dropped?path=' + encodeURIComponent(path)
}

export function fromPath(path: string): Attachment {
  return { id: nextId++, name: baseName(path), path, dataUrl: '' }
}

/**
 * An image the engine handed back (a queued message that Stop returned) as
 * an attachment again: a dropped file by its path, pasted or picked bytes as
 * the data: URL the engine sends (with the media type it read from them).
 * Sent again, it goes as it came.
 */
export function fromInput(i: ImageInput): Attachment {
  if (i.path) return { ...fromPath(i.path), name: i.name || baseName(i.path) }
  return { id: nextId++, name: i.name || 'image', path: '', dataUrl: i.data_base64 ?? '' }
}

function readDataUrl(f: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader()
    r.onload = () => resolve(String(r.result))
    r.onerror = () => reject(r.error ?? new Error('could not be read'))
    r.readAsDataURL(f)
  })
}

function mib(n: number): string {
  return `${(n / (1 << 20)).toFixed(1)} MiB`
}

/**
 * Reads files as attachments. name(f, i) names each one (pasted images have
 * no useful name). A file over MAX_IMAGE_BYTES (not read) or that cannot be
 * read comes back as a chip with its reason and nothing to send.
 */
export async function fromFiles(
  files: readonly File[],
  name: (f: File, i: number) => string = (f) => f.name,
): Promise<Attachment[]> {
  const added: Attachment[] = []
  for (const [i, f] of files.entries()) {
    const n = name(f, i) || `image ${i + 1}`
    if (f.size > MAX_IMAGE_BYTES) {
      added.push(refusedChip(n, `it is ${mib(f.size)}; images over ${mib(MAX_IMAGE_BYTES)} are refused`))
      continue
    }
    try {
      added.push({ id: nextId++, name: n, path: '', dataUrl: await readDataUrl(f) })
    } catch (e) {
      added.push(refusedChip(n, `could not be read: ${e instanceof Error ? e.message : String(e)}`))
    }
  }
  return added
}

/** A chip for a file the page could not read: shown with its reason, never sent. */
function refusedChip(name: string, reason: string): Attachment {
  return { id: nextId++, name, path: '', dataUrl: '', reason }
}

/** The image files of a paste (clipboard items of kind file, type image/*). */
export function pastedImages(data: DataTransfer | null): File[] {
  if (!data) return []
  const out: File[] = []
  for (const item of Array.from(data.items ?? [])) {
    if (item.kind !== 'file' || !item.type.startsWith('image/')) continue
    const f = item.getAsFile()
    if (f) out.push(f)
  }
  return out
}

/** "pasted image N.png": a screenshot's own name ("image.png") says nothing. */
export function pastedName(f: File, n: number): string {
  const ext = (f.type.split('/')[1] ?? 'png').replace('jpeg', 'jpg').replace(/\W.*$/, '')
  return `pasted image ${n}.${ext || 'png'}`
}

/** "pasted image N.png" for an image Go read from the clipboard (a path). */
export function pastedPathName(path: string, n: number): string {
  const ext = /\.(\w+)$/.exec(path)?.[1] ?? 'png'
  return `pasted image ${n}.${ext}`
}

/**
 * Whether a paste that carries no image file may still hold an image the
 * web view did not hand over (WebKitGTK): it has an image type, or no text.
 * A plain text paste is left to the text field.
 */
export function mayHoldImage(data: DataTransfer | null): boolean {
  const types = Array.from(data?.types ?? [])
  return types.some((t) => t.startsWith('image/')) || !types.includes('text/plain')
}

/**
 * Whether a drag carries files or file URIs (a file manager's drag): those
 * reach Vis through Go, so the page must not drop them as text.
 */
export function carriesFiles(data: DataTransfer | null): boolean {
  if (!data) return false
  const types = Array.from(data.types ?? [])
  return types.includes('Files') || types.includes('text/uri-list')
}
