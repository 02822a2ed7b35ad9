// On a user message: "Restore project to before this message" — every file back as the first
// checkpoint at or after the message recorded it. Files only: the conversation stays as it is.
import { TID } from "../../shared/testids";
import { RestoreStatus } from "./RestoreStatus";
import { useRestore } from "./useRestore";

export function RestoreControl({ checkpointId, disabled }: { checkpointId: string; disabled: boolean }) {
  const restore = useRestore(checkpointId);
  const busy = restore.flow.phase === "working" || restore.flow.phase === "planning" || restore.flow.phase === "confirming";
  return (
    <div className="restore-control">
      <button
        type="button"
        className="link small restore-project"
        data-testid={TID.restoreProject}
        data-checkpoint-id={checkpointId}
        disabled={disabled || busy}
        title={disabled ? "Wait for the answer to finish" : "Put every file back as it was before this message (the conversation stays)"}
        onClick={() => void restore.restore()}
      >
        Restore project to before this message
      </button>
      <RestoreStatus restore={restore} what="the project to before this message" />
    </div>
  );
}
