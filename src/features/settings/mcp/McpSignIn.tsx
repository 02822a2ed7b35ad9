import { useState } from "react";
import { messageOf } from "../../../shared/format";
import { api, type McpServerConfig } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import type { Dot } from "./mcpModel";

/**
 * A server's sign-in: "Sign in" when it needs one (the browser, or the client's own secret), "Sign
 * out" once an HTTP server is connected, and why the last try failed. `onSignedIn` after either.
 */
export function McpSignIn({
  name,
  config,
  dot,
  onSignedIn,
}: {
  name: string;
  config: McpServerConfig;
  dot: Dot;
  onSignedIn: () => void;
}) {
  const [signing, setSigning] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const account = (call: () => Promise<null>) => {
    setSigning({ busy: true, error: null });
    call().then(
      () => {
        setSigning({ busy: false, error: null });
        onSignedIn();
      },
      (e: unknown) => setSigning({ busy: false, error: messageOf(e) }),
    );
  };
  return (
    <>
      {dot === "sign-in" && (
        <p>
          <button type="button" data-testid={TID.mcpSignIn} disabled={signing.busy} onClick={() => account(() => api.mcpSignIn(name))}>
            {signing.busy ? "Waiting for the browser…" : "Sign in"}
          </button>{" "}
          <span className="muted">
            {config.oauth?.grant === "client_credentials"
              ? "Warden signs in with the client's own secret or key."
              : "The server's sign-in page opens in your browser."}
          </span>
        </p>
      )}
      {dot === "ok" && config.url && (
        <button type="button" className="link" data-testid={TID.mcpSignOut} disabled={signing.busy} onClick={() => account(() => api.mcpSignOut(name))}>
          Sign out
        </button>
      )}
      {signing.error && <p className="field-error">{signing.error}</p>}
    </>
  );
}
