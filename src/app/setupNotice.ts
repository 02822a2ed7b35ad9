import { PROVIDER_LABELS, isKeySet, keyNameOf } from "../features/settings/settingsModel";
import type { KeyStatus, ProviderId, ProviderReadiness } from "../shared/ipc";

/** The hosted providers whose key the setup screen takes. */
const HOSTED: readonly ProviderId[] = ["anthropic", "openai"];

/**
 * What the setup screen says, above its first step, about the provider Warden is set to use, in
 * words a person understands; null when there is nothing to say beyond the step itself. A hosted
 * provider without a key is the first run: the step asks for one, so nothing is said (the engine's
 * "no API key for anthropic: set ANTHROPIC_API_KEY…" is for the terminal). A provider chosen
 * earlier that cannot answer (Ollama not running, a server without an address) says so, with the
 * engine's reason, which names the fix.
 */
export function setupNotice(provider: ProviderId, readiness: ProviderReadiness, keys: readonly KeyStatus[]): string | null {
  if (readiness.ready) return null;
  const label = PROVIDER_LABELS[provider];
  const reason = readiness.reason?.trim() ?? "";
  if (HOSTED.includes(provider)) {
    const key = keyNameOf(provider);
    if (!key || !isKeySet([...keys], key)) return null;
    return `Warden could not use the ${label} key saved on this computer${reason ? `: ${reason}` : "."}`;
  }
  const because = reason ? ` ${reason.charAt(0).toUpperCase()}${reason.slice(1)}` : "";
  const what = provider === "openai_compatible" ? "an OpenAI-compatible server" : label;
  return `Warden is set to use ${what}, which cannot answer yet.${because}`;
}
