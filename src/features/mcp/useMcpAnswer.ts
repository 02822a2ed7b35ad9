import { useState } from "react";
import { api } from "../../shared/ipc";
import { messageOf } from "../../shared/format";

/**
 * Send the answer to the server's request `requestId`, then `onDone`. A request that no longer
 * waits (timed out) shows why for two seconds and goes away.
 */
export function useMcpAnswer(requestId: string, onDone: () => void) {
  const [error, setError] = useState<string | null>(null);
  const answer = (a: Parameters<typeof api.mcpElicitAnswer>[1]) =>
    api.mcpElicitAnswer(requestId, a).then(onDone, (e: unknown) => {
      setError(messageOf(e));
      setTimeout(onDone, 2000);
    });
  return { answer, error };
}
