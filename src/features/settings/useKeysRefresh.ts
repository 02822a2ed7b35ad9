import { useEffect } from "react";
import { api, type KeyStatus } from "../../shared/ipc";

/**
 * Which keys are set, and what each provider said of its key, asked when Settings opens and again
 * on each call of the function returned; `onKeysChanged` is told the answer.
 */
export function useKeysRefresh(onKeysChanged: (keys: KeyStatus[]) => void): () => void {
  const refreshKeys = () => {
    Promise.resolve()
      .then(() => api.keysStatus())
      .then(
        (keys) => Array.isArray(keys) && onKeysChanged(keys),
        (e: unknown) => console.warn("keys_status failed", e),
      );
  };
  // Asked afresh each time Settings opens: whether a key was accepted changes as messages are sent.
  useEffect(refreshKeys, []);
  return refreshKeys;
}
