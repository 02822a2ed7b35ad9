// Settings → Skills' data: the skills and custom commands a conversation started now would have, read
// again when the project (or the saved settings) change, and a skill switched on or off — shown at
// once, saved by the engine, and back as it was with the reason when that fails.
import { useCallback, useEffect, useState } from "react";
import { messageOf } from "../../shared/format";
import { api, type ConventionsInUse } from "../../shared/ipc";

export function useSkillsList(
  refreshKey: string,
  beforeChange?: () => Promise<void>,
  onChanged?: () => void,
) {
  const [found, setFound] = useState<ConventionsInUse | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The skills whose switch is being saved, and why a switch failed, by name.
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [failed, setFailed] = useState<Readonly<Record<string, string>>>({});

  const load = useCallback(async () => {
    try {
      setFound(await api.conventionsList());
      setError(null);
    } catch (e) {
      setError(messageOf(e));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load, refreshKey]);

  const setOn = (name: string, on: boolean) =>
    setFound((f) => f && { ...f, skills: f.skills.map((s) => (s.name === name ? { ...s, on } : s)) });
  const setBusyFor = (name: string, isBusy: boolean) =>
    setBusy((b) => {
      const next = new Set(b);
      if (isBusy) next.add(name);
      else next.delete(name);
      return next;
    });

  const switchSkill = async (name: string, on: boolean) => {
    setOn(name, on);
    setBusyFor(name, true);
    setFailed(({ [name]: _gone, ...rest }) => rest);
    try {
      // What Settings have not saved yet is saved first: a later save must not undo the switch.
      await beforeChange?.();
      await api.skillSwitch(name, on);
      onChanged?.();
    } catch (e) {
      setOn(name, !on);
      setFailed((f) => ({ ...f, [name]: `Not switched ${on ? "on" : "off"}: ${messageOf(e)}` }));
    } finally {
      setBusyFor(name, false);
    }
  };

  return { found, error, busy, failed, switchSkill };
}
