// What the window needs before it can decide between setup and chat: settings, which keys are set,
// and whether an Ollama server answers locally.
import { useEffect, useState } from "react";
import { api, type KeyStatus, type Settings } from "../shared/ipc";

export type Boot =
  | { state: "loading" }
  | { state: "failed"; message: string }
  | { state: "ready"; settings: Settings; keys: KeyStatus[]; ollamaReachable: boolean };

export function useBoot(): Boot {
  const [boot, setBoot] = useState<Boot>({ state: "loading" });
  useEffect(() => {
    let live = true;
    Promise.all([
      api.settingsGet(),
      api.keysStatus(),
      // An unreachable Ollama is an answer, not a failure.
      api.ollamaProbe().catch(() => false),
    ]).then(
      ([settings, keys, ollamaReachable]) => live && setBoot({ state: "ready", settings, keys, ollamaReachable }),
      (e: unknown) => live && setBoot({ state: "failed", message: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, []);
  return boot;
}
