import { useEffect, type RefObject } from "react";

/** While `open`, a press anywhere outside `inside` calls `close`, as menus do. */
export function usePressAway(inside: RefObject<HTMLElement | null>, open: boolean, close: () => void) {
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (!inside.current?.contains(e.target as Node)) close();
    };
    document.addEventListener("mousedown", away);
    return () => document.removeEventListener("mousedown", away);
    // `close` may be a new function each render; the listener only needs to be there while open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
}
