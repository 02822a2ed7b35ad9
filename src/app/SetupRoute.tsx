import type { KeyStatus, ProviderReadiness, Settings } from "../shared/ipc";
import { Setup } from "./Setup";
import { setupNotice } from "./setupNotice";
import { useSetupSave } from "./useSetupSave";

/** The first-run screen with what it saves (the provider, the folder) and what it says about the provider set. */
export function SetupRoute({
  settings,
  setSettings,
  keys,
  readiness,
  ollamaReachable,
  onOpenSettings,
  onDone,
}: {
  settings: Settings;
  setSettings: (settings: Settings) => void;
  keys: KeyStatus[];
  readiness: ProviderReadiness;
  ollamaReachable: boolean;
  onOpenSettings: () => void;
  onDone: () => void;
}) {
  const setup = useSetupSave(settings, setSettings);
  return (
    <Setup
      ollamaReachable={ollamaReachable}
      notReady={setupNotice(settings.activeProvider ?? "anthropic", readiness, keys)}
      chosen={setup.chosen}
      projectDir={settings.projectDir ?? null}
      busy={setup.busy}
      error={setup.error}
      onProjectChosen={setup.chooseProject}
      onUseOllama={() => void setup.chooseProvider("ollama")}
      onKeySaved={(provider) => void setup.chooseProvider(provider)}
      onOpenSettings={onOpenSettings}
      onDone={onDone}
    />
  );
}
