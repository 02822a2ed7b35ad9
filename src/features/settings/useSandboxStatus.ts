import { useEffect, useState } from "react";
import { messageOf } from "../../shared/format";
import { api, type SandboxStatus } from "../../shared/ipc";
import { useClearLayer } from "./useClearLayer";

/**
 * How commands are contained here (asked again when the project folder changes; `error` when it
 * could not be asked), and `clearLayer`, which removes the project's cache layer.
 */
export function useSandboxStatus(projectDir: string | null | undefined) {
  const [status, setStatus] = useState<SandboxStatus | null>(null);
  const [error, setError] = useState<string | null>(null);

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

  const { clearing, clearError, clearLayer } = useClearLayer(api.sandboxClearCacheLayer, api.sandboxStatus, setStatus);
  return { status, error, clearing, clearError, clearLayer };
}
