// Settings → MCP servers for the remote projects linked in this window (docs/REMOTE.md): the
// servers of these settings run on each project's machine, in its box, with the secrets they name
// sent from this machine's keychain. Asked there when a project's part is opened (each server is
// started there to say where it stands). Read only: they are changed above, for every project. A
// project's own `.mcp.json` there is offered as one here is, read there.
import { api, type McpServerStatus } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { RemoteProjectParts } from "../../remote/RemoteProjectParts";
import type { RemoteProject } from "../../remote/remoteStore";
import { remotePlace } from "../../../shared/projectPlace";
import { dotOf, statusText } from "./mcpModel";
import { ProjectMcpOffer } from "./ProjectMcpOffer";

export function RemoteMcpServers({ projects }: { projects: RemoteProject[] }) {
  return (
    <RemoteProjectParts
      projects={projects}
      testId={TID.remoteMcp}
      summary={(p) => `The servers on ${p.host}, for ${p.target} (as ${p.user})`}
      ask={(p) => api.remoteMcpStatus(p.conversationId)}
      show={(servers, error, p) => (
        <>
          <ServersThere servers={servers} error={error} host={p.host} />
          {/* Its own .mcp.json, read there once the part is opened. */}
          {servers && <ProjectMcpOffer place={remotePlace(p.conversationId, p.target, p.host)} statuses={servers} onChosen={() => undefined} />}
        </>
      )}
    />
  );
}

function ServersThere({ servers, error, host }: { servers: McpServerStatus[] | null; error: string | null; host: string }) {
  if (error) return <p className="field-error">{error}</p>;
  if (!servers) return <p className="muted">Asking {host}…</p>;
  if (servers.length === 0) return <p className="muted">No server runs for this project there.</p>;
  return (
    <ul className="mcp-servers">
      {servers.map((server) => (
        <li key={server.name} data-testid={TID.remoteMcpServer} data-name={server.name} data-state={server.state}>
          <span className={`mcp-dot mcp-dot-${dotOf(server, false)}`} aria-hidden="true" />
          <strong>{server.name}</strong> <span className="muted">{statusText(server, false)}</span>
        </li>
      ))}
    </ul>
  );
}
