// One file of a turn's diff put back as it was before the turn, and that taken back.
import { TID } from "../../shared/testids";
import { RestoreStatus } from "./RestoreStatus";
import { useRestore } from "./useRestore";

export function RevertFile({ checkpointId, path, disabled }: { checkpointId: string; path: string; disabled: boolean }) {
  const restore = useRestore(checkpointId, [path]);
  const phase = restore.flow.phase;
  return (
    <div className="revert-file">
      {(phase === "idle" || phase === "undone") && (
        <button
          type="button"
          className="small"
          data-testid={TID.revertFile}
          data-path={path}
          disabled={disabled}
          title={disabled ? "Wait for the answer to finish" : `Put ${path} back as it was before this turn`}
          onClick={() => void restore.restore()}
        >
          Revert this file
        </button>
      )}
      <RestoreStatus restore={restore} what={path} />
    </div>
  );
}
