import type { McpIgnoredField, McpServerConfig, McpServerStatus } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { VisibleText, WRAP } from "../../../shared/ui/VisibleText";
import { configFields, statusText } from "./mcpModel";
import { useProjectMcpOffer } from "./useProjectMcpOffer";
import type { ProjectPlace } from "../../../shared/projectPlace";

/**
 * The project's own `.mcp.json`: shown with every field Warden would use of each server and every
 * field it ignores (what only the user's own settings can grant: a tool allowed to run unasked, a
 * keychain secret, sampling, the network), with why; used only once the user says so, for this
 * content (a changed file is offered again, and approving a file that changed since it was shown is
 * refused).
 */
export function ProjectMcpOffer({
  place,
  statuses,
  onChosen,
}: {
  /** The project open here, or a linked remote one (its file read there). */
  place: ProjectPlace | null;
  statuses: McpServerStatus[] | null;
  onChosen: () => void;
}) {
  const { offer, error, choose } = useProjectMcpOffer(place, onChosen);
  const there = place?.there ?? null;

  if (!offer) return error ? <p className="field-error">{error}</p> : null;
  const names = Object.keys(offer.servers);

  return (
    <div className="mcp-project" data-testid={TID.mcpProject} data-approved={String(offer.approved)}>
      <p>
        This project has its own <code>.mcp.json</code>
        {offer.error ? ", which cannot be used: " : ` with ${names.length} ${names.length === 1 ? "server" : "servers"}`}
        {offer.error && <span className="field-error">{offer.error}</span>}
        {offer.approved === true && " — in use."}
        {offer.approved === false && " — not used (you said no)."}
      </p>
      {!offer.error && (
        <p className="muted">
          Their programs run in the project&apos;s sandbox exactly as the agent&apos;s commands do:{" "}
          <strong>{offer.network ? "with the network through Warden's proxy" : "without the network"}</strong> (the project&apos;s Sandbox
          setting), writing only where its commands may.
        </p>
      )}
      {!offer.error &&
        names.map((name) => (
          <ProjectServer
            key={name}
            name={name}
            config={offer.servers[name]!}
            ignored={offer.ignored[name] ?? []}
            status={offer.approved === true ? statusText(statuses?.find((s) => s.name === name), false) : null}
          />
        ))}
      {!offer.error && offer.approved !== true && (
        <p className="muted">
          Using it starts these programs {there ? `on ${there}, as that machine's user, from the next message there` : "on your machine"}{" "}
          (inside the sandbox) with exactly the fields above. A repository you cloned decides what is in this file, so only
          use it if you trust it.
        </p>
      )}
      {offer.digest && (
        <p className="muted mcp-project-digest">
          SHA-256 of this content: <code>{offer.digest}</code>
        </p>
      )}
      {!offer.error && (
        <p>
          {offer.approved !== true && (
            <button type="button" data-testid={TID.mcpProjectUse} onClick={() => void choose(offer.digest, true)}>
              Use these servers
            </button>
          )}{" "}
          {offer.approved !== false && (
            <button type="button" className={offer.approved === true ? "link" : ""} data-testid={TID.mcpProjectDecline} onClick={() => void choose(offer.digest, false)}>
              {offer.approved === true ? "Stop using them" : "Not now"}
            </button>
          )}
        </p>
      )}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}

/** One server of the file: every field used, then every field ignored and why. */
function ProjectServer({
  name,
  config,
  ignored,
  status,
}: {
  name: string;
  config: McpServerConfig;
  ignored: McpIgnoredField[];
  status: string | null;
}) {
  return (
    <div className="mcp-project-server" data-testid={TID.mcpProjectServer} data-server={name}>
      <p>
        <strong>{name}</strong> <span className="muted">({config.url ? "http" : "stdio"})</span>
        {status && <span className="muted"> · {status}</span>}
      </p>
      <dl className="mcp-project-fields">
        {configFields(config).map(([field, value]) => (
          <div key={field} data-testid={TID.mcpProjectField} data-field={field}>
            <dt>
              <code>{field}</code>
            </dt>
            <dd>
              <code style={WRAP}>
                <VisibleText text={value} />
              </code>
            </dd>
          </div>
        ))}
      </dl>
      {ignored.length > 0 && (
        <div className="mcp-project-ignored" data-testid={TID.mcpProjectIgnored}>
          <p>Ignored: only your own settings can grant these.</p>
          <ul>
            {ignored.map((item) => (
              <li key={item.field} data-field={item.field}>
                <code>{item.field}</code> ={" "}
                <code style={WRAP}>
                  <VisibleText text={item.value} />
                </code>
                : {item.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
