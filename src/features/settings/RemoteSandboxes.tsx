// Settings → Sandbox for the remote projects linked in this window (docs/REMOTE.md): the box each
// one's commands get on its own machine, asked there when its part is opened — the mechanism,
// what they may write, the caches, what they see of that home and what is hidden there. Read
// only: the layer there is not cleared from here.
import { useState } from "react";
import { api, type SandboxStatus } from "../../shared/ipc";
import { messageOf } from "../../shared/format";
import { TID } from "../../shared/testids";
import type { RemoteProject } from "../remote/remoteStore";
import { SandboxContainment } from "./SandboxContainment";

export function RemoteSandboxes({ projects }: { projects: RemoteProject[] }) {
  if (projects.length === 0) return null;
  return (
    <div className="remote-sandboxes">
      <h4>Remote projects</h4>
      {projects.map((project) => (
        <RemoteSandbox key={project.conversationId} project={project} />
      ))}
    </div>
  );
}

function RemoteSandbox({ project }: { project: RemoteProject }) {
  const [status, setStatus] = useState<SandboxStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ask = () => {
    if (status || error) return;
    api.remoteSandboxStatus(project.conversationId).then(setStatus, (e: unknown) => setError(messageOf(e)));
  };
  return (
    <details data-testid={TID.remoteSandbox} data-target={project.target} onToggle={(e) => e.currentTarget.open && ask()}>
      <summary>
        The box on {project.host}, for {project.target} (as {project.user})
      </summary>
      <SandboxContainment status={status} error={error} clearing={false} clearError={null} onClearLayer={null} />
    </details>
  );
}
