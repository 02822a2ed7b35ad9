// Pure helpers over the Settings type from the bindings: defaults, per-provider and per-project
// edits, and whether a provider is usable. Settings never hold a key (see KeyField).
import type { KeyCheck, KeyName, KeyStatus, LearnedModel, ModelEntry, ProviderId, PermissionRule, ProviderSettings, Settings, ToolPermissions, TrustLevel } from "../../shared/ipc";
import { DEFAULT_BASE_URLS } from "../../shared/ipc";

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

export const DEFAULT_OLLAMA_URL = DEFAULT_BASE_URLS.ollama;

/** The address each provider talks to when its base URL is left empty (the engine's own, generated); none for an OpenAI-compatible server. */
export function defaultBaseUrl(p: ProviderId): string | null {
  return p === "openai_compatible" ? null : DEFAULT_BASE_URLS[p];
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

/** The learned models of the server a provider talks to (its base URL, or its default). */
export function learnedAt(all: LearnedModel[], provider: ProviderId, baseUrl: string | null | undefined): LearnedModel[] {
  const url = baseUrl?.trim() || defaultBaseUrl(provider);
  if (!url) return [];
  return all.filter((entry) => trimSlash(entry.baseUrl) === trimSlash(url));
}

export const TRUST_LEVELS: { level: TrustLevel; label: string; explain: string }[] = [
  { level: "supervised", label: "Supervised", explain: "Every tool call waits for your approval, even reading a file." },
  { level: "guided", label: "Guided", explain: "Reading and searching run on their own; anything that changes files or runs commands asks first." },
  {
    level: "autonomous",
    label: "Autonomous",
    explain:
      "Nothing asks while commands run in the sandbox; the project scope and the blocklist still apply, and a command that wants the network or to leave the sandbox still asks.",
  },
];

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
      network: "rules",
      extraWritable: [],
      extraReadable: [],
      checkpoints: true,
    }
  );
}

export function setProjectPermissions(s: Settings, patch: Partial<ToolPermissions>): Settings {
  const current = projectPermissions(s);
  if (!current || !s.projectDir) return s;
  return { ...s, toolPermissions: { ...s.toolPermissions, [s.projectDir]: { ...current, ...patch } } };
}

/** The hosts a project's network rules allow (`tool: "network"`, `effect: "allow"`), in order. */
export function allowedHosts(rules: PermissionRule[] | undefined): string[] {
  return (rules ?? []).filter((r) => r.tool === "network" && r.effect === "allow" && r.pattern).map((r) => r.pattern!);
}

/** `rules` with its network allow rules replaced by one per host; every other rule kept as it was. */
export function withAllowedHosts(rules: PermissionRule[] | undefined, hosts: string[]): PermissionRule[] {
  const others = (rules ?? []).filter((r) => !(r.tool === "network" && r.effect === "allow" && r.pattern));
  return [...others, ...hosts.map((pattern): PermissionRule => ({ effect: "allow", tool: "network", pattern }))];
}

export function isKeySet(keys: KeyStatus[], name: KeyName | null): boolean {
  return name !== null && keys.some((k) => k.name === name && k.isSet);
}


/** What the provider said about a key the last time it was sent (null: not sent in this run). */
export function keyCheckOf(keys: KeyStatus[], name: KeyName | null): KeyCheck | null {
  return (name !== null && keys.find((k) => k.name === name)?.lastCheck) || null;
}

/** The models to offer: the listed ones, with the saved `value` kept first when the list lacks it
 * (or is not loaded yet), so a saved choice always shows. */
export function modelOptions(value: string | null, listed: ModelEntry[]): ModelEntry[] {
  return value && !listed.some((m) => m.id === value)
    ? [{ id: value, displayName: null, supportsTools: null, contextWindow: null }, ...listed]
    : listed;
}

/** The paths of `paths` that are a known credential location or lie inside one (`locations`, from the sandbox status). */
export function credentialPaths(paths: string[], locations: string[]): string[] {
  const trimmed = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);
  return paths.filter((p) => locations.some((l) => trimmed(p) === l || trimmed(p).startsWith(`${l}/`)));
}
