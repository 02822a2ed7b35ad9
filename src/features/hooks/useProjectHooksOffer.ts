// A project's own hooks (its `.claude/settings.json`) as the engine offers them — the project open
// here, or a linked remote one's, read there: asked when the project changes, when the window gets
// the focus back (the file may have changed meanwhile: a `git pull`, an edit), and after each answer.
import { useEffect, useRef, useState } from "react";
import { messageOf } from "../../shared/format";
import type { ProjectHooksOffer } from "../../shared/ipc";
import type { ProjectPlace } from "../../shared/projectPlace";

/** `refresh`: asked again when it changes (Settings pass their saves: the folder in use may have changed). */
export function useProjectHooksOffer(place: ProjectPlace | null, refresh = 0) {
  const projectDir = place?.key ?? null;
  // The place of the project named by `projectDir` (a new object each render, the same project).
  const current = useRef(place);
  current.current = place;
  const [offer, setOffer] = useState<ProjectHooksOffer | null>(null);
  /** Why the offer could not be read (cleared once it is). */
  const [readError, setReadError] = useState<string | null>(null);
  /** Why the last answer was refused (cleared by the next answer, or another project). */
  const [chooseError, setChooseError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [asked, setAsked] = useState(0);

  useEffect(() => {
    const onFocus = () => setAsked((n) => n + 1);
    window.addEventListener("focus", onFocus);
    return () => window.removeEventListener("focus", onFocus);
  }, []);

  useEffect(() => {
    let live = true;
    const place = current.current;
    if (!place) {
      setReadError(null);
      setOffer(null);
      return;
    }
    place.hooks().then(
      (found) => {
        if (!live) return;
        setOffer(found);
        setReadError(null);
      },
      (e: unknown) => live && setReadError(`Could not read the project's hooks: ${messageOf(e)}`),
    );
    return () => {
      live = false;
    };
  }, [projectDir, asked, refresh]);
  // Another project: nothing of the last one's offer stays in view.
  useEffect(() => {
    setChooseError(null);
    setOffer(null);
  }, [projectDir]);

  /** Run (`approve`) or stop running the hooks shown, named by their digest; then ask again. */
  const choose = (digest: string, approve: boolean): Promise<boolean> => {
    const place = current.current;
    if (!place) return Promise.resolve(false);
    setBusy(true);
    return place.chooseHooks(digest, approve).then(
      () => {
        setBusy(false);
        setChooseError(null);
        setAsked((n) => n + 1);
        return true;
      },
      (e: unknown) => {
        // Refused, say, because the file changed since it was shown: show it as it is now.
        setBusy(false);
        setChooseError(`${approve ? "Could not approve" : "Could not decline"} the project's hooks: ${messageOf(e)}`);
        setAsked((n) => n + 1);
        return false;
      },
    );
  };

  return { offer, error: chooseError ?? readError, busy, choose };
}
