import { useState } from "react";
import { api, type KeptAside } from "../../shared/ipc";
import { messageOf } from "../../shared/format";
import { TID } from "../../shared/testids";

type Step = { state: "confirm" } | { state: "restoring" } | { state: "done" } | { state: "failed"; message: string };

/**
 * Under a command: what Warden moved out of the project's git metadata (a hook, a config with
 * options that run programs, a gitfile), and the offer to put each back — asked twice, since it
 * will run code outside the sandbox the next time git runs in the project.
 */
export function GitAsideOffers({ conversationId, kept = [] }: { conversationId: string; kept: readonly KeptAside[] | undefined }) {
  const [steps, setSteps] = useState<Record<string, Step>>({});
  if (kept.length === 0) return null;
  const set = (aside: string, step: Step | null) =>
    setSteps((s) => {
      const next = { ...s };
      if (step) next[aside] = step;
      else delete next[aside];
      return next;
    });
  const restore = async (k: KeptAside) => {
    set(k.aside, { state: "restoring" });
    try {
      await api.gitAsideRestore(conversationId, k.from, k.aside);
      set(k.aside, { state: "done" });
    } catch (e) {
      set(k.aside, { state: "failed", message: messageOf(e) });
    }
  };
  return (
    <ul className="tool-offers small" data-testid={TID.toolGitAside}>
      {kept.map((k) => {
        const step = steps[k.aside];
        return (
          <li key={k.aside}>
            Warden moved <code>{k.from}</code> aside: it would {k.danger}.{" "}
            {step?.state === "done" ? (
              <span data-testid={TID.toolGitAsideDone}>Put back.</span>
            ) : step?.state === "confirm" || step?.state === "restoring" ? (
              <span role="group" aria-label="Put it back?">
                It will run outside the sandbox the next time git runs here.{" "}
                <button
                  type="button"
                  className="link"
                  data-testid={TID.toolGitAsideConfirm}
                  disabled={step.state === "restoring"}
                  onClick={() => void restore(k)}
                >
                  Put it back
                </button>{" "}
                <button type="button" className="link" onClick={() => set(k.aside, null)}>
                  Keep it aside
                </button>
              </span>
            ) : (
              <button type="button" className="link" data-testid={TID.toolGitAsideRestore} onClick={() => set(k.aside, { state: "confirm" })}>
                Put it back…
              </button>
            )}
            {step?.state === "failed" && <span className="field-error"> {step.message}</span>}
          </li>
        );
      })}
    </ul>
  );
}
