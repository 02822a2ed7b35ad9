// The skills and custom commands the composer offers after "/": asked of the engine when the composer
// mounts, when the project changes and when the window gets the focus back (the user may have added
// a file meanwhile); never per keystroke.
import { useEffect, useState } from "react";
import { api, type ConventionsInUse } from "../../../shared/ipc";

function isConventions(value: unknown): value is ConventionsInUse {
  const v = value as Partial<ConventionsInUse> | null;
  return !!v && Array.isArray(v.skills) && Array.isArray(v.commands);
}

/** What `conventions_list` last said (null until it answered; kept when a later ask fails). */
export function useConventions(projectDir: string | null | undefined): ConventionsInUse | null {
  const [found, setFound] = useState<ConventionsInUse | null>(null);
  useEffect(() => {
    let live = true;
    let asked = 0;
    const load = () => {
      const mine = ++asked;
      Promise.resolve()
        .then(() => (live ? api.conventionsList() : null))
        .then(
          (got) => {
            // Only the newest answer counts (two quick focus changes may answer out of order).
            if (live && mine === asked && isConventions(got)) setFound(got);
          },
          (e: unknown) => console.warn("conventions_list failed", e),
        );
    };
    load();
    window.addEventListener("focus", load);
    return () => {
      live = false;
      window.removeEventListener("focus", load);
    };
  }, [projectDir]);
  return found;
}
