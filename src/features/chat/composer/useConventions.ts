// The skills and custom commands the composer offers after "/": asked of the engine when the composer
// mounts, when the project changes and when the window gets the focus back (the user may have added
// a file meanwhile); never per keystroke.
import { useEffect, useRef, useState } from "react";
import type { ConventionsInUse } from "../../../shared/ipc";
import type { ProjectPlace } from "../../../shared/projectPlace";

function isConventions(value: unknown): value is ConventionsInUse {
  const v = value as Partial<ConventionsInUse> | null;
  return !!v && Array.isArray(v.skills) && Array.isArray(v.commands);
}

/**
 * What the project at `place` last said of its skills and commands (null until it answered, or
 * without a project; kept when a later ask fails). A remote project's are read there.
 */
export function useConventions(place: ProjectPlace | null): ConventionsInUse | null {
  const [found, setFound] = useState<ConventionsInUse | null>(null);
  const key = place?.key ?? null;
  // The place of the project named by `key` (a new object each render, the same project).
  const current = useRef(place);
  current.current = place;
  useEffect(() => {
    setFound(null);
    if (!current.current) return;
    let live = true;
    let asked = 0;
    const load = () => {
      const mine = ++asked;
      Promise.resolve()
        .then(() => (live ? (current.current?.conventions() ?? null) : null))
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
  }, [key]);
  return found;
}
