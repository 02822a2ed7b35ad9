// Which instructions the model reads besides Warden's own (the project's AGENTS.md files, the
// global instructions in Settings), as the engine says: asked again when `refreshKey` changes (the
// project folder or the global text was saved) and when the window gets the focus back (the user
// may have edited a file elsewhere).
import { useEffect, useState } from "react";
import { api, type InstructionsInUse } from "../../shared/ipc";

const NONE: InstructionsInUse = { files: [], global: false };

/** `remoteId`: the conversation of a linked remote project, whose instructions are read there. */
export function useInstructionsInUse(refreshKey: string, remoteId: string | null = null): InstructionsInUse | null {
  const [inUse, setInUse] = useState<InstructionsInUse | null>(null);
  const [focused, setFocused] = useState(0);

  useEffect(() => {
    const onFocus = () => setFocused((n) => n + 1);
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, []);

  useEffect(() => {
    let live = true;
    Promise.resolve()
      .then(() => (remoteId === null ? api.instructionsInUse() : api.remoteInstructionsInUse(remoteId)))
      .then(
        (found) => {
          if (live) setInUse(found && Array.isArray(found.files) ? found : NONE);
        },
        (e: unknown) => {
          console.warn("instructions_in_use failed", e);
          if (live) setInUse(NONE);
        },
      );
    return () => {
      live = false;
    };
  }, [refreshKey, focused, remoteId]);

  return inUse;
}
