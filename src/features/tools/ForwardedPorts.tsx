import type { JsonValue } from "../../shared/ipc";
import { TID } from "../../shared/testids";

/** A port a boxed server listens on, and where this machine reaches it (`forwarded_ports`). */
export interface ForwardedPort {
  port: number;
  hostPort: number;
}

export function forwardedPortsOf(metadata: JsonValue | null): ForwardedPort[] {
  if (!metadata || typeof metadata !== "object" || Array.isArray(metadata)) return [];
  const list = metadata.forwarded_ports;
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) => {
    if (!entry || typeof entry !== "object" || Array.isArray(entry)) return [];
    const { port, hostPort } = entry;
    return typeof port === "number" && typeof hostPort === "number" ? [{ port, hostPort }] : [];
  });
}

/** The session's servers this machine reaches, under a command's block: "⇄ localhost:8000". */
export function ForwardedPorts({ metadata }: { metadata: JsonValue | null }) {
  const ports = forwardedPortsOf(metadata);
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
