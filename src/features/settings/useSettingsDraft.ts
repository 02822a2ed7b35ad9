import { useEffect, useRef, useState } from "react";
import { messageOf } from "../../shared/format";
import { api, type Settings } from "../../shared/ipc";

/** How long after the last change Settings are saved (typing a URL saves once, not per key). */
export const SAVE_DELAY_MS = 400;

export type SaveState =
  | { state: "clean" }
  | { state: "dirty" }
  | { state: "saving" }
  | { state: "saved" }
  | { state: "error"; message: string };

/**
 * The settings as Settings edits them, saved as they change (as the Claude and ChatGPT apps do: no
 * Save button to forget): `edit` saves SAVE_DELAY_MS after the last change, `persist` at once (and
 * resolves when it landed). Leaving Settings any way (the window closing included) writes what is
 * pending. `onSaved` is told each saved copy.
 */
export function useSettingsDraft(initial: Settings, onSaved: (s: Settings) => void) {
  const [draft, setDraft] = useState(initial);
  const [save, setSave] = useState<SaveState>({ state: "clean" });
  // Counts the saves that landed: what depends on the saved settings (MCP servers' state) asks again.
  const [savedCount, setSavedCount] = useState(0);
  // What the next save writes, the pending timer, and the saves in flight (one after the other,
  // so an older draft never lands after a newer one).
  const latest = useRef(draft);
  const dirty = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const chain = useRef<Promise<void>>(Promise.resolve());

  const persist = (): Promise<void> => {
    clearTimeout(timer.current);
    if (!dirty.current) return chain.current;
    dirty.current = false;
    const settings = latest.current;
    setSave({ state: "saving" });
    const run = chain.current.then(async () => {
      try {
        await api.settingsSet(settings);
        if (!dirty.current) setSave({ state: "saved" });
        setSavedCount((n) => n + 1);
        onSaved(settings);
      } catch (e) {
        dirty.current = true;
        setSave({ state: "error", message: messageOf(e) });
        throw e;
      }
    });
    chain.current = run.catch(() => undefined);
    return run;
  };

  const edit = (s: Settings) => {
    setDraft(s);
    latest.current = s;
    dirty.current = true;
    setSave({ state: "dirty" });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void persist().catch(() => undefined), SAVE_DELAY_MS);
  };
  useEffect(() => () => void persist().catch(() => undefined), []);

  // The engine keeps rules in the settings: after one changed, take the saved settings again, so a
  // later save does not put the old rules back (what was pending was saved before the change).
  const reloadSaved = () => {
    api.settingsGet().then(
      (saved) => {
        if (dirty.current) return;
        setDraft(saved);
        latest.current = saved;
        onSaved(saved);
      },
      (e: unknown) => console.warn("settings_get failed", e),
    );
  };

  /** The user accepted the settings file as it is (SettingsIntegrityNotice): that copy is the one edited. */
  const accepted = (settings: Settings) => {
    setDraft(settings);
    setSave({ state: "clean" });
    onSaved(settings);
  };

  return { draft, save, savedCount, edit, persist, reloadSaved, accepted };
}
