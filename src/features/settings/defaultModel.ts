// What a model menu's "default" line says: the model the engine answers with when the settings
// name none, by name (generated from the engine's `default_model`), as the provider's list names it
// once loaded. A server of one's own has no fixed default: the engine takes the server's only model.
import { DEFAULT_MODELS, type ModelEntry, type ProviderId } from "../../shared/ipc";

const PROVIDER_DEFAULTS: Partial<Record<ProviderId, string>> = DEFAULT_MODELS;

/** "claude-sonnet-4-5 (default)"; for a server of one's own, the model in use or its only one. */
export function defaultLabel(provider: ProviderId, inUse: string | null | undefined, models: readonly ModelEntry[]): string {
  const only = provider === "openai_compatible" && models.length === 1 ? models[0]!.id : null;
  const id = PROVIDER_DEFAULTS[provider] ?? inUse ?? only;
  if (!id) return "The server's model";
  const listed = models.find((m) => m.id === id);
  return `${listed?.displayName || id} (default)`;
}
