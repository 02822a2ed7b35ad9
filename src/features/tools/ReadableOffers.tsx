import { useState } from "react";
import { api } from "../../shared/ipc";
import { messageOf } from "../../shared/format";
import { TID } from "../../shared/testids";

type Taken = { state: "asking" } | { state: "done" } | { state: "failed"; message: string };

/**
 * Under a failed command: each path of the home it looked for that the box left out (the box
 * shows only toolchains of the home), with the offer to let the project's commands read it. The
 * engine checks the path again; what it hides on purpose (credentials, Warden's own files) is
 * never offered.
 */
export function ReadableOffers({ conversationId, paths = [] }: { conversationId: string; paths: readonly string[] | undefined }) {
  const [taken, setTaken] = useState<Record<string, Taken>>({});
  if (paths.length === 0) return null;
  const take = async (path: string) => {
    setTaken((t) => ({ ...t, [path]: { state: "asking" } }));
    try {
      await api.sandboxAllowRead(conversationId, path);
      setTaken((t) => ({ ...t, [path]: { state: "done" } }));
    } catch (e) {
      setTaken((t) => ({ ...t, [path]: { state: "failed", message: messageOf(e) } }));
    }
  };
  return (
    <ul className="tool-offers small" data-testid={TID.toolReadableOffers}>
      {paths.map((path) => {
        const state = taken[path];
        return (
          <li key={path}>
            <code>{path}</code> is not in the sandbox, which shows only your toolchains of the home.{" "}
            {state?.state === "done" ? (
              <span data-testid={TID.toolReadableOfferDone}>This project&apos;s commands can read it from your next message.</span>
            ) : (
              <button
                type="button"
                className="link"
                data-testid={TID.toolReadableOffer}
                disabled={state?.state === "asking"}
                onClick={() => void take(path)}
              >
                Let this project&apos;s commands read it
              </button>
            )}
            {state?.state === "failed" && <span className="field-error"> {state.message}</span>}
          </li>
        );
      })}
    </ul>
  );
}
