import { useEffect, useState } from "react";
import { messageOf } from "../../../shared/format";
import { api, type ProjectMcpOffer as Offer } from "../../../shared/ipc";

/**
 * The project's own `.mcp.json` as the engine offers it (null without a project folder), asked again
 * after each answer; `choose` answers for the content shown (its `digest`), then `onChosen`. `error`
 * says why the offer could not be read or the answer was refused.
 */
export function useProjectMcpOffer(projectDir: string | null, onChosen: () => void) {
  const [offer, setOffer] = useState<Offer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState(0);

  useEffect(() => {
    let live = true;
    if (!projectDir) {
      setOffer(null);
      return;
    }
    api.mcpProjectOffer().then(
      (o) => live && setOffer(o),
      (e: unknown) => live && setError(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, [projectDir, asked]);

  const choose = (digest: string, approved: boolean) =>
    api.mcpProjectChoose(digest, approved).then(
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
