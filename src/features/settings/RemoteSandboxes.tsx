// Settings → Sandbox for the remote projects linked in this window (docs/REMOTE.md): the box each
// one's commands get on its own machine, asked there when its part is opened — the mechanism,
// what they may write, the caches and the project's layer over them (cleared there), what they see
// of that home and what is hidden there.
import { useState } from "react";
import { api, type SandboxStatus } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { RemoteProjectParts } from "../remote/RemoteProjectParts";
import type { RemoteProject } from "../remote/remoteStore";
import { SandboxContainment } from "./SandboxContainment";
import { useClearLayer } from "./useClearLayer";

export function RemoteSandboxes({ projects }: { projects: RemoteProject[] }) {
  return (
    <RemoteProjectParts
      projects={projects}
      testId={TID.remoteSandbox}
      summary={(p) => `The box on ${p.host}, for ${p.target} (as ${p.user})`}
      ask={(p) => api.remoteSandboxStatus(p.conversationId)}
      show={(status, error, project) => <RemoteSandbox project={project} status={status} error={error} />}
    />
  );
}

/** One remote project's box, as first asked (`status`), then as asked again after a Clear. */
function RemoteSandbox({ project, status, error }: { project: RemoteProject; status: SandboxStatus | null; error: string | null }) {
  const [cleared, setCleared] = useState<SandboxStatus | null>(null);
  const id = project.conversationId;
  const { clearing, clearError, clearLayer } = useClearLayer(
    () => api.remoteClearCacheLayer(id),
    () => api.remoteSandboxStatus(id),
    setCleared,
  );
  return (
    <SandboxContainment
      status={cleared ?? status}
      error={error}
      clearing={clearing}
      clearError={clearError}
      onClearLayer={() => void clearLayer()}
    />
  );
}
