// Under the top bar, while the link to the shown remote conversation's engine is not up: it
// dropped and Warden links again (the session goes on there meanwhile), it is lost (the session
// cannot be reached), or it was never made in this start (a project opened before). A lost or
// never-made link offers to take the conversation up again there, with what was said before; a
// lost one also to open the project anew. Gone when the link is up.
import type { RemoteLink } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import type { RemoteOpenValues } from "./RemoteOpenDialog";
import type { RemoteProject } from "./remoteStore";

/** What the banner says of `link` to `host`. */
function linkWords(host: string, link: RemoteLink): string {
  if (link.state === "lost") return `The link to ${host} is lost${link.detail ? `: ${link.detail}` : "."}`;
  if (link.state === "closed") return link.detail ? `Could not link to ${host}: ${link.detail}` : `Not linked to ${host} since Warden started.`;
  if (link.state === "connecting") return `Linking to ${host}…`;
  const attempt = link.attempt !== null ? ` (attempt ${link.attempt})` : "";
  return `The link to ${host} dropped — reconnecting${attempt}…`;
}

export function RemoteLinkBanner({
  project,
  link,
  onReopen,
  onResume,
}: {
  /** The remote project shown (null: a local conversation). */
  project: RemoteProject | null;
  /** Its link while not up (null: up). */
  link: RemoteLink | null;
  /** Opens the dialog again, filled in with this project. */
  onReopen: (values: RemoteOpenValues) => void;
  /** Takes this conversation up again there. */
  onResume: (project: RemoteProject) => void;
}) {
  if (!project || !link) return null;
  const lost = link.state === "lost";
  const resumable = lost || link.state === "closed";
  return (
    <div className="remote-link-banner" role="status" data-testid={TID.remoteLinkBanner} data-state={link.state}>
      <span>{linkWords(project.host, link)}</span>
      {lost && <span className="muted">The session there cannot be reached: open the project again to go on.</span>}
      {!resumable && link.state !== "connecting" && link.detail && <span className="muted">{link.detail}</span>}
      {resumable && (
        <button type="button" className="link" data-testid={TID.remoteResume} onClick={() => onResume(project)}>
          Link and continue this conversation
        </button>
      )}
      {lost && (
        <button type="button" className="link" data-testid={TID.remoteReopen} onClick={() => onReopen({ target: project.target, transport: project.transport, remoteEnvKeys: project.remoteEnvKeys })}>
          Open {project.target} again…
        </button>
      )}
    </div>
  );
}
