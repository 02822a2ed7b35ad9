// Listening to the Tauri side for as long as a component is mounted: `subscribe` resolves with a
// function that stops listening, which runs on unmount — also when the unmount comes first.
import { useEffect } from "react";

export function useListener(subscribe: () => Promise<() => void>, what: string, deps: readonly unknown[] = []): void {
  useEffect(() => {
    let stop: (() => void) | null = null;
    let live = true;
    subscribe().then(
      (s) => (live ? (stop = s) : s()),
      (e: unknown) => console.error(`could not listen to ${what}`, e),
    );
    return () => {
      live = false;
      stop?.();
    };
    // `deps`: what the subscription depends on, as the caller names it.
  }, deps);
}
