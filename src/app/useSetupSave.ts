import { useState } from "react";
import { messageOf } from "../shared/format";
import { api, type ProviderId, type Settings } from "../shared/ipc";

/**
 * What the setup screen saves: the project folder picked there, and the provider chosen there
 * (Ollama, or the provider of a key pasted there), which becomes the active one (`chosen`; the
 * screen then goes on to its second step, the folder). `busy` while saving, `error` the reason
 * when saving failed.
 */
export function useSetupSave(settings: Settings, setSettings: (settings: Settings) => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<ProviderId | null>(null);

  /** Save `next`; resolves with whether it was saved. */
  const save = async (next: Settings): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await api.settingsSet(next);
      setSettings(next);
      return true;
    } catch (e) {
      setError(messageOf(e));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const chooseProject = (dir: string) => void save({ ...settings, projectDir: dir });

  const chooseProvider = async (provider: ProviderId) => {
    if (await save({ ...settings, activeProvider: provider })) setChosen(provider);
  };

  return { busy, error, chosen, chooseProject, chooseProvider };
}
