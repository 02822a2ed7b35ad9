import { useState } from "react";
import { messageOf } from "../../shared/format";
import type { SandboxStatus } from "../../shared/ipc";

/**
 * Settings → Sandbox's Clear of a project's cache layer (this machine's, or a remote project's
 * there): `clear` removes it, then `statusNow` is asked again and `shown` (its size is then 0).
 */
export function useClearLayer(
  clear: () => Promise<unknown>,
  statusNow: () => Promise<SandboxStatus>,
  shown: (status: SandboxStatus) => void,
) {
  const [clearing, setClearing] = useState(false);
  const [clearError, setClearError] = useState<string | null>(null);
  const clearLayer = async () => {
    setClearing(true);
    setClearError(null);
    try {
      await clear();
      shown(await statusNow());
    } catch (e: unknown) {
      setClearError(messageOf(e));
    } finally {
      setClearing(false);
    }
  };
  return { clearing, clearError, clearLayer };
}
