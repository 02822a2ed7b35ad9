import type { ModelChoice } from "../features/chat/transcript/ModelSwitch";
import { providerSettings, setProvider } from "../features/settings/settingsModel";
import { api, type Settings } from "../shared/ipc";

/**
 * The composer's model menu: the active provider's model. A choice is saved as Settings saves it; the
 * next message uses it.
 */
export function modelChoiceOf(settings: Settings, setSettings: (settings: Settings) => void): ModelChoice {
  const provider = settings.activeProvider ?? "anthropic";
  return {
    provider,
    model: providerSettings(settings, provider).model ?? null,
    onChange: async (model: string | null) => {
      const next = setProvider(settings, provider, { model, contextWindow: null });
      await api.settingsSet(next);
      setSettings(next);
    },
  };
}
