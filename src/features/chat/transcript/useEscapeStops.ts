import { useEffect } from "react";
import { aDialogIsOpen } from "../../../shared/keyboard";

/** Esc stops a running answer, unless a dialog (the approval card) is open: there it rejects. */
export function useEscapeStops(running: boolean, stop: () => void) {
  useEffect(() => {
    if (!running) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented || aDialogIsOpen()) return;
      e.preventDefault();
      stop();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [running, stop]);
}
