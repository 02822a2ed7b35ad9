import { useEffect, useState } from "react";
import { api, type McpServerStatus, type ProjectMcpOffer as Offer } from "../../../shared/ipc";
import { messageOf } from "../../../shared/format";
import { TID } from "../../../shared/testids";
import { reachedBy, statusText } from "./mcpModel";

/**
 * The project's own `.mcp.json`: shown with every program it would start, used only once the user
 * says so (for this content: a changed file is offered again).
 */
export function ProjectMcpOffer({
  projectDir,
  statuses,
  onChosen,
}: {
  projectDir: string | null;
  statuses: McpServerStatus[] | null;
  onChosen: () => void;
}) {
  const [offer, setOffer] = useState<Offer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState(0);

  useEffect(() => {
    let live = true;
    if (!projectDir) {
      setOffer(null);
      return;
    }
    api.mcpProjectOffer().then(
      (o) => live && setOffer(o),
      (e: unknown) => live && setError(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, [projectDir, asked]);

  if (!offer) return error ? <p className="field-error">{error}</p> : null;
  const names = Object.keys(offer.servers);
  const choose = (approved: boolean) =>
    api.mcpProjectChoose(offer.digest, approved).then(
      () => {
        setAsked((n) => n + 1);
        onChosen();
      },
      (e: unknown) => setError(messageOf(e)),
    );

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
        <ul className="path-list">
          {names.map((name) => {
            const status = statuses?.find((s) => s.name === name);
            return (
              <li key={name}>
                <strong>{name}</strong> <code>{reachedBy(offer.servers[name]!)}</code>
                {offer.approved === true && <span className="muted"> · {statusText(status, false)}</span>}
              </li>
            );
          })}
        </ul>
      )}
      {!offer.error && offer.approved !== true && (
        <p className="muted">
          Using it starts these programs on your machine (inside the sandbox). A repository you cloned decides what is in
          this file, so only use it if you trust it.
        </p>
      )}
      {!offer.error && (
        <p>
          {offer.approved !== true && (
            <button type="button" data-testid={TID.mcpProjectUse} onClick={() => void choose(true)}>
              Use these servers
            </button>
          )}{" "}
          {offer.approved !== false && (
            <button type="button" className={offer.approved === true ? "link" : ""} data-testid={TID.mcpProjectDecline} onClick={() => void choose(false)}>
              {offer.approved === true ? "Stop using them" : "Not now"}
            </button>
          )}
        </p>
      )}
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
