// Calls back when the user comes back to the window (it regains focus, or is shown again), to ask
// again for what may have changed meanwhile: conversations saved by `warden exec` in a terminal.
import { useEffect, useRef } from "react";

/** Focus and visibility come together when switching back: one call for both. */
const COALESCE_MS = 1000;

export function useWindowReturn(onReturn: () => void) {
  const latest = useRef(onReturn);
  latest.current = onReturn;
  useEffect(() => {
    let last = -Infinity;
    const back = () => {
      const now = Date.now();
      if (now - last < COALESCE_MS) return;
      last = now;
      latest.current();
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") back();
    };
    window.addEventListener("focus", back);
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      window.removeEventListener("focus", back);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, []);
}
