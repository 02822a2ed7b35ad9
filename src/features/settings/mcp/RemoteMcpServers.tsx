// Settings → MCP servers for the remote projects linked in this window (docs/REMOTE.md): the
// servers of these settings run on each project's machine, in its box, with the secrets they name
// sent from this machine's keychain. Asked there when a project's part is opened (each server is
// started there to say where it stands). Read only: they are changed above, for every project.
import { useState } from "react";
import { api, type McpServerStatus } from "../../../shared/ipc";
import { messageOf } from "../../../shared/format";
import { TID } from "../../../shared/testids";
import type { RemoteProject } from "../../remote/remoteStore";
import { dotOf, statusText } from "./mcpModel";

export function RemoteMcpServers({ projects }: { projects: RemoteProject[] }) {
  if (projects.length === 0) return null;
  return (
    <div className="remote-sandboxes">
      <h4>Remote projects</h4>
      {projects.map((project) => (
        <RemoteMcp key={project.conversationId} project={project} />
      ))}
    </div>
  );
}

function RemoteMcp({ project }: { project: RemoteProject }) {
  const [servers, setServers] = useState<McpServerStatus[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ask = () => {
    if (servers || error) return;
    api.remoteMcpStatus(project.conversationId).then(setServers, (e: unknown) => setError(messageOf(e)));
  };
  return (
    <details data-testid={TID.remoteMcp} data-target={project.target} onToggle={(e) => e.currentTarget.open && ask()}>
      <summary>
        The servers on {project.host}, for {project.target} (as {project.user})
      </summary>
      {error && <p className="field-error">{error}</p>}
      {!servers && !error && <p className="muted">Asking {project.host}…</p>}
      {servers?.length === 0 && <p className="muted">No server runs for this project there.</p>}
      {servers && servers.length > 0 && (
        <ul className="mcp-servers">
          {servers.map((server) => (
            <li key={server.name} data-testid={TID.remoteMcpServer} data-name={server.name} data-state={server.state}>
              <span className={`mcp-dot mcp-dot-${dotOf(server, false)}`} aria-hidden="true" />
              <strong>{server.name}</strong> <span className="muted">{statusText(server, false)}</span>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
