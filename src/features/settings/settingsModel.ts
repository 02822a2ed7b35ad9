// Pure helpers over the Settings type from the bindings: defaults, per-provider and per-project
// edits, and whether a provider is usable. Settings never hold a key (see KeyField).
import type { KeyName, KeyStatus, ProviderId, ProviderSettings, Settings, ToolPermissions, TrustLevel } from "../../shared/ipc";

export const PROVIDERS: readonly ProviderId[] = ["anthropic", "openai", "openai_compatible", "ollama"];

export const PROVIDER_LABELS: Record<ProviderId, string> = {
  anthropic: "Anthropic",
  openai: "OpenAI",
  openai_compatible: "OpenAI-compatible server",
  ollama: "Ollama",
};

/** The keychain entry of a provider; Ollama needs none. */
export function keyNameOf(p: ProviderId): KeyName | null {
  return p === "ollama" ? null : p;
}

export const DEFAULT_OLLAMA_URL = "http://localhost:11434";

export const TRUST_LEVELS: { level: TrustLevel; label: string; explain: string }[] = [
  { level: "supervised", label: "Supervised", explain: "Every tool call waits for your approval, even reading a file." },
  { level: "guided", label: "Guided", explain: "Reading and searching run on their own; anything that changes files or runs commands asks first." },
  { level: "autonomous", label: "Autonomous", explain: "Nothing asks; the project scope and the blocklist of destructive commands still apply." },
];

/** Every tool the engine knows, and the read-only set that applies when none is chosen (docs/ARCHITECTURE.md §6). */
export const ALL_TOOLS = [
  "file_read",
  "list_dir",
  "file_info",
  "search_files",
  "search_in_files",
  "system_info",
  "web_search",
  "file_write",
  "file_edit",
  "apply_patch",
  "bash",
  "command_output",
  "cancel_command",
] as const;
export const READ_ONLY_TOOLS = ALL_TOOLS.slice(0, 7);

export function withDefaults(s: Settings): Settings {
  return {
    ...s,
    trustLevel: s.trustLevel ?? "guided",
    activeProvider: s.activeProvider ?? "anthropic",
    providers: s.providers ?? {},
    projectDir: s.projectDir ?? null,
    toolPermissions: s.toolPermissions ?? {},
    approvalTimeoutSecs: s.approvalTimeoutSecs ?? 30,
    searxngUrl: s.searxngUrl ?? "http://localhost:8080",
  };
}

export function providerSettings(s: Settings, p: ProviderId): ProviderSettings {
  return s.providers?.[p] ?? {};
}

export function setProvider(s: Settings, p: ProviderId, patch: Partial<ProviderSettings>): Settings {
  return { ...s, providers: { ...s.providers, [p]: { ...providerSettings(s, p), ...patch } } };
}

export function projectPermissions(s: Settings): ToolPermissions | null {
  if (!s.projectDir) return null;
  return (
    s.toolPermissions?.[s.projectDir] ?? {
      allowedTools: null,
      writeGlobs: [],
      bashTimeoutSecs: 60,
      network: false,
      extraWritable: [],
    }
  );
}

export function setProjectPermissions(s: Settings, patch: Partial<ToolPermissions>): Settings {
  const current = projectPermissions(s);
  if (!current || !s.projectDir) return s;
  return { ...s, toolPermissions: { ...s.toolPermissions, [s.projectDir]: { ...current, ...patch } } };
}

export function isKeySet(keys: KeyStatus[], name: KeyName | null): boolean {
  return name !== null && keys.some((k) => k.name === name && k.isSet);
}

/** Whether the active provider can answer: a key is set, or it is a reachable Ollama, or a keyless local server. */
export function activeProviderReady(s: Settings, keys: KeyStatus[], ollamaReachable: boolean): boolean {
  const p = s.activeProvider ?? "anthropic";
  if (p === "ollama") return ollamaReachable;
  if (isKeySet(keys, keyNameOf(p))) return true;
  return p === "openai_compatible" && !!providerSettings(s, p).baseUrl;
}
