// The top bar, while a remote conversation is shown: where the work happens — the project on the
// other machine (`host:/path`), the user it runs as there and the box its commands run in, and
// the way to the other conversations saved in that project there.
import { TID } from "../../shared/testids";
import type { RemoteProject } from "./remoteStore";

export function RemoteProjectLabel({ project, onSaved }: { project: RemoteProject; onSaved?: () => void }) {
  const keys = project.remoteEnvKeys ? " · keys: that machine's" : "";
  const machine = `as ${project.user} · box: ${project.containment}${keys}`;
  return (
    <span className="topbar-project topbar-remote" title={`${project.target} on ${project.host}, ${machine}`}>
      <span data-testid={TID.remoteProject}>{project.target}</span>
      <span className="topbar-remote-machine" data-testid={TID.remoteMachine}>
        {machine}
      </span>
      {onSaved && (
        <button type="button" className="link" data-testid={TID.remoteSavedOpen} onClick={onSaved}>
          Conversations there…
        </button>
      )}
    </span>
  );
}
