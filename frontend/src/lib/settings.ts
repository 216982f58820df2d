// The settings dialog's editable copy of the provider settings, and the rules
// that turn it back into a SettingsInput. The API key is write-only: the page
// only ever holds what the person types now.
import type { ModelInfo, Preset, Settings, SettingsInput, Verdict } from './types'
import type { ExtensionsApi } from './extensions'

/** What the settings dialog calls (bridge.ts's api; tests pass fakes). */
export interface SettingsApi extends Partial<ExtensionsApi> {
  settings: () => Promise<Settings>
  saveSettings: (input: SettingsInput) => Promise<Settings>
  /** apiKey "" = the stored key. */
  listModels: (baseUrl: string, apiKey: string) => Promise<string[]>
  testConnection: (baseUrl: string, model: string, apiKey: string) => Promise<Verdict>
  detectLocal: () => Promise<Preset[]>
  /** Saves "ask me when the sandbox refuses a command" (from the next turn). */
  setAskOnRefusal?: (on: boolean) => Promise<void>
  /** Saves which desktop notifications to send while the window is not focused. */
  setNotifications?: (turnEnd: boolean, input: boolean) => Promise<void>
}

export interface Draft {
  preset: string
  baseUrl: string
  model: string
  reasoning: string
  models: ModelInfo[]
  /** A new key typed now ("" = leave the stored one). */
  key: string
  removeKey: boolean
}

export const REASONING_LEVELS = ['', 'low', 'medium', 'high'] as const

/** The preset whose base URL is url (trailing slashes ignored), else "custom". */
export function presetForUrl(presets: readonly Preset[], url: string): string {
  const norm = (u: string) => u.trim().replace(/\/+$/, '')
  const p = presets.find((p) => p.base_url && norm(p.base_url) === norm(url))
  return p ? p.id : 'custom'
}

/** The dialog's starting point: the saved provider, else what is in effect, else OpenAI. */
export function draftFrom(s: Settings): Draft {
  const p = s.provider
  if (p) {
    return {
      preset: p.preset || presetForUrl(s.presets, p.base_url),
      baseUrl: p.base_url,
      model: p.model,
      reasoning: p.reasoning,
      models: (p.models ?? []).map((m) => ({ ...m })),
      key: '',
      removeKey: false,
    }
  }
  if (s.effective.base_url) {
    return {
      preset: presetForUrl(s.presets, s.effective.base_url),
      baseUrl: s.effective.base_url,
      model: s.effective.model,
      reasoning: '',
      models: [],
      key: '',
      removeKey: false,
    }
  }
  const first = s.presets[0]
  return { preset: first?.id ?? 'custom', baseUrl: first?.base_url ?? '', model: '', reasoning: '', models: [], key: '', removeKey: false }
}

/**
 * d switched to preset: its base URL. Custom (no URL of its own) starts
 * empty, unless the URL so far was typed by the person (no preset's URL):
 * that one is kept.
 */
export function applyPreset(d: Draft, preset: Preset, presets: readonly Preset[] = []): Draft {
  if (preset.base_url) return { ...d, preset: preset.id, baseUrl: preset.base_url }
  const typed = presetForUrl(presets, d.baseUrl) === 'custom'
  return { ...d, preset: preset.id, baseUrl: typed ? d.baseUrl : '' }
}

/** The flags of model name: its saved entry, else the defaults (tool calls on). */
export function flagsOf(d: Draft, name: string): ModelInfo {
  return d.models.find((m) => m.name === name) ?? { name, tools: true, reasoning: false, vision: false, context: 0 }
}

/** d with model name's flags replaced (added when missing). */
export function setFlags(d: Draft, m: ModelInfo): Draft {
  const has = d.models.some((x) => x.name === m.name)
  return { ...d, models: has ? d.models.map((x) => (x.name === m.name ? m : x)) : [...d.models, m] }
}

/** What SaveSettings gets: the key only when typed, a delete only when asked. */
export function toInput(d: Draft): SettingsInput {
  const key = d.key.trim()
  return {
    preset: d.preset,
    base_url: d.baseUrl.trim(),
    model: d.model.trim(),
    reasoning: d.reasoning,
    models: d.models.filter((m) => m.name.trim() !== ''),
    api_key: key,
    key_action: key ? 'set' : d.removeKey ? 'delete' : 'keep',
  }
}

/** Input to send to SaveSettings when only the model changes (the footer's switcher). */
export function withModel(s: Settings, model: string): SettingsInput | null {
  if (!s.provider) return null
  return { ...toInput(draftFrom(s)), model }
}
