// Settings → Sandbox for the remote projects linked in this window (docs/REMOTE.md): the box each
// one's commands get on its own machine, asked there when its part is opened — the mechanism,
// what they may write, the caches, what they see of that home and what is hidden there. Read
// only: the layer there is not cleared from here.
import { api } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { RemoteProjectParts } from "../remote/RemoteProjectParts";
import type { RemoteProject } from "../remote/remoteStore";
import { SandboxContainment } from "./SandboxContainment";

export function RemoteSandboxes({ projects }: { projects: RemoteProject[] }) {
  return (
    <RemoteProjectParts
      projects={projects}
      testId={TID.remoteSandbox}
      summary={(p) => `The box on ${p.host}, for ${p.target} (as ${p.user})`}
      ask={(p) => api.remoteSandboxStatus(p.conversationId)}
      show={(status, error) => <SandboxContainment status={status} error={error} clearing={false} clearError={null} onClearLayer={null} />}
    />
  );
}
