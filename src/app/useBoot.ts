// What the window needs before it can decide between setup and chat: settings, which keys are set,
// whether the active provider can answer (the engine's answer, with why not), and whether an
// Ollama server answers locally (the setup offers it).
import { useEffect, useState } from "react";
import { api, type KeyStatus, type ProviderReadiness, type Settings } from "../shared/ipc";
import { messageOf } from "../shared/format";

export type Boot =
  | { state: "loading" }
  | { state: "failed"; message: string }
  | { state: "ready"; settings: Settings; keys: KeyStatus[]; readiness: ProviderReadiness; ollamaReachable: boolean };

const unknown = (e: unknown): ProviderReadiness => ({ ready: false, reason: messageOf(e) });

export function useBoot(): Boot {
  const [boot, setBoot] = useState<Boot>({ state: "loading" });
  useEffect(() => {
    let live = true;
    const load = async () => {
      const [settings, keys] = await Promise.all([api.settingsGet(), api.keysStatus()]);
      const active = settings.activeProvider ?? "anthropic";
      // A provider that cannot answer is an answer, not a failure.
      const [readiness, ollama] = await Promise.all([
        api.providerReadiness(active).catch(unknown),
        active === "ollama" ? null : api.providerReadiness("ollama").catch(unknown),
      ]);
      return { settings, keys, readiness, ollamaReachable: (ollama ?? readiness).ready };
    };
    load().then(
      (loaded) => live && setBoot({ state: "ready", ...loaded }),
      (e: unknown) => live && setBoot({ state: "failed", message: messageOf(e) }),
    );
    return () => {
      live = false;
    };
  }, []);
  return boot;
}
