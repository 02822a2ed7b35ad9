import { useEffect, useRef, useState } from "react";
import { messageOf } from "../../../shared/format";
import type { ProjectMcpOffer as Offer } from "../../../shared/ipc";
import type { ProjectPlace } from "../../../shared/projectPlace";

/**
 * A project's own `.mcp.json` as the engine offers it — the project open here, or a linked remote
 * one's, read there (null without a project), asked again
 * after each answer; `choose` answers for the content shown (its `digest`), then `onChosen`. `error`
 * says why the offer could not be read or the answer was refused.
 */
export function useProjectMcpOffer(place: ProjectPlace | null, onChosen: () => void) {
  const projectDir = place?.key ?? null;
  // The place of the project named by `projectDir` (a new object each render, the same project).
  const current = useRef(place);
  current.current = place;
  const [offer, setOffer] = useState<Offer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState(0);

  useEffect(() => {
    let live = true;
    const place = current.current;
    if (!place) {
      setOffer(null);
      return;
    }
    place.mcp().then(
      (o) => live && setOffer(o),
      (e: unknown) => live && setError(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, [projectDir, asked]);

  const choose = (digest: string, approved: boolean) =>
    (current.current?.chooseMcp(digest, approved) ?? Promise.resolve()).then(
      () => {
        setAsked((n) => n + 1);
        onChosen();
      },
      (e: unknown) => {
        // Refused, say, because the file changed since it was shown: show it as it is now.
        setError(messageOf(e));
        setAsked((n) => n + 1);
      },
    );

  return { offer, error, choose };
}
