// The top bar, while a remote conversation is shown: where the work happens — the project on the
// other machine (`host:/path`), the user it runs as there and the box its commands run in.
import { TID } from "../../shared/testids";
import type { RemoteProject } from "./remoteStore";

export function RemoteProjectLabel({ project }: { project: RemoteProject }) {
  const machine = `as ${project.user} · box: ${project.containment}`;
  return (
    <span className="topbar-project topbar-remote" title={`${project.target} on ${project.host}, ${machine}`}>
      <span data-testid={TID.remoteProject}>{project.target}</span>
      <span className="topbar-remote-machine" data-testid={TID.remoteMachine}>
        {machine}
      </span>
    </span>
  );
}
