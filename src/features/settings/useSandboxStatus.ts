import { useEffect, useState } from "react";
import { messageOf } from "../../shared/format";
import { api, type SandboxStatus } from "../../shared/ipc";

/**
 * How commands are contained here (asked again when the project folder changes; `error` when it
 * could not be asked), and `clearLayer`, which removes the project's cache layer.
 */
export function useSandboxStatus(projectDir: string | null | undefined) {
  const [status, setStatus] = useState<SandboxStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [clearing, setClearing] = useState(false);
  const [clearError, setClearError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api.sandboxStatus().then(
      (s) => live && setStatus(s),
      (e: unknown) => live && setError(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, [projectDir]);

  /** Remove the project's cache layer, then show the status again (its size is then 0). */
  const clearLayer = async () => {
    setClearing(true);
    setClearError(null);
    try {
      await api.sandboxClearCacheLayer();
      setStatus(await api.sandboxStatus());
    } catch (e: unknown) {
      setClearError(messageOf(e));
    } finally {
      setClearing(false);
    }
  };

  return { status, error, clearing, clearError, clearLayer };
}
