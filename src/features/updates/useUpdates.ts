// Updates of the installed app, for the notice and the menu: a quiet check at start (when Settings
// says so; a notice only when there is an update), a check on request (Help → Check for Updates,
// Settings → Updates) whose answer is always shown, and the install the user asks for.
import { useCallback, useEffect, useRef, useState } from "react";
import { api, subscribeUpdateProgress, type UpdateProgress } from "../../shared/ipc";
import { messageOf } from "../../shared/format";

export type UpdateState =
  | { kind: "idle" }
  | { kind: "checking" }
  | { kind: "upToDate"; current: string }
  | { kind: "unavailable"; reason: string }
  | { kind: "available"; current: string; version: string; notes: string; published: string | null }
  | { kind: "installing"; version: string; progress: UpdateProgress | null }
  | { kind: "failed"; message: string; version: string | null };

export interface Updates {
  state: UpdateState;
  /** Look now; the answer is shown whatever it is. */
  check: () => void;
  /** Install the update found and restart into it. */
  install: () => void;
  /** Put the notice away (until the next check). */
  dismiss: () => void;
}

export function useUpdates(checkAtStart: boolean): Updates {
  const [state, setState] = useState<UpdateState>({ kind: "idle" });
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  const set = (next: UpdateState) => {
    if (live.current) setState(next);
  };

  const look = useCallback(async (quiet: boolean) => {
    if (!quiet) set({ kind: "checking" });
    try {
      const found = await api.updateCheck();
      if (found.status === "available") {
        set({
          kind: "available",
          current: found.current,
          version: found.version,
          notes: found.notes,
          published: found.published ?? null,
        });
      } else if (!quiet) {
        set(found.status === "upToDate" ? { kind: "upToDate", current: found.current } : { kind: "unavailable", reason: found.reason });
      }
    } catch (e) {
      if (!quiet) set({ kind: "failed", message: messageOf(e), version: null });
    }
  }, []);

  // Once, when the window opens.
  const startChecked = useRef(false);
  useEffect(() => {
    if (!checkAtStart || startChecked.current) return;
    startChecked.current = true;
    void look(true);
  }, [checkAtStart, look]);

  const version = state.kind === "available" ? state.version : null;
  const install = useCallback(() => {
    if (version === null) return;
    set({ kind: "installing", version, progress: null });
    let stop: (() => void) | null = null;
    void subscribeUpdateProgress((progress) => set({ kind: "installing", version, progress })).then((s) => (stop = s));
    // On success the app restarts into the new version: nothing after this runs.
    api.updateInstall().then(
      () => stop?.(),
      (e: unknown) => {
        stop?.();
        set({ kind: "failed", message: messageOf(e), version });
      },
    );
  }, [version]);

  return {
    state,
    check: () => void look(false),
    install,
    dismiss: () => set({ kind: "idle" }),
  };
}
