import type { ForwardedPort } from "../../shared/ipc";
import { TID } from "../../shared/testids";

/** The session's servers this machine reaches, under a command's block: "⇄ localhost:8000". */
export function ForwardedPorts({ ports = [] }: { ports: readonly ForwardedPort[] | undefined }) {
  if (ports.length === 0) return null;
  return (
    <div className="tool-forwards small" data-testid={TID.toolForwards}>
      {ports.map(({ port, hostPort }) => (
        <span
          key={port}
          className="tool-forward"
          title={
            port === hostPort
              ? `A server in the sandbox listens on port ${port}; Warden forwards it to this machine until the session ends`
              : `A server in the sandbox listens on port ${port}; that port was taken here, so Warden forwards it to ${hostPort}`
          }
        >
          <span aria-hidden>⇄ </span>localhost:{hostPort}
          {port !== hostPort && <span className="muted"> (port {port} in the sandbox)</span>}
        </span>
      ))}
    </div>
  );
}
