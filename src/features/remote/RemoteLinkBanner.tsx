// Under the top bar, while the link to the shown remote conversation's engine is not up: it
// dropped and Warden links again (the session goes on there meanwhile), or it is lost (the session
// cannot be reached: the project must be opened again). Gone when the link is back up.
import type { RemoteLink } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import type { RemoteOpenValues } from "./RemoteOpenDialog";
import type { RemoteProject } from "./remoteStore";

/** What the banner says of `link` to `host`. */
function linkWords(host: string, link: RemoteLink): string {
  if (link.state === "lost") return `The link to ${host} is lost${link.detail ? `: ${link.detail}` : "."}`;
  const attempt = link.attempt !== null ? ` (attempt ${link.attempt})` : "";
  return `The link to ${host} dropped — reconnecting${attempt}…`;
}

export function RemoteLinkBanner({
  project,
  link,
  onReopen,
}: {
  /** The remote project shown (null: a local conversation). */
  project: RemoteProject | null;
  /** Its link while not up (null: up). */
  link: RemoteLink | null;
  /** Opens the dialog again, filled in with this project. */
  onReopen: (values: RemoteOpenValues) => void;
}) {
  if (!project || !link) return null;
  const lost = link.state === "lost";
  return (
    <div className="remote-link-banner" role="status" data-testid={TID.remoteLinkBanner} data-state={link.state}>
      <span>{linkWords(project.host, link)}</span>
      {lost ? (
        <>
          <span className="muted">The session there cannot be reached: open the project again to go on.</span>
          <button type="button" className="link" data-testid={TID.remoteReopen} onClick={() => onReopen({ target: project.target, transport: project.transport })}>
            Open {project.target} again…
          </button>
        </>
      ) : (
        link.detail && <span className="muted">{link.detail}</span>
      )}
    </div>
  );
}
