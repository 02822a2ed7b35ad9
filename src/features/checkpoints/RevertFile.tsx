// One file of a turn's diff put back as it was before the turn, and that taken back.
import { useEffect, useRef } from "react";
import { TID } from "../../shared/testids";
import { RestoreStatus } from "./RestoreStatus";
import { useRestore } from "./useRestore";

export function RevertFile({
  checkpointId,
  path,
  disabled,
  onReverted,
}: {
  checkpointId: string;
  path: string;
  disabled: boolean;
  /** Told when the file was put back, or that was undone: the diff is read again. */
  onReverted?: (path: string) => void;
}) {
  const restore = useRestore(checkpointId, [path]);
  const phase = restore.flow.phase;
  const latest = useRef(onReverted);
  latest.current = onReverted;
  useEffect(() => {
    if (phase === "restored" || phase === "undone") latest.current?.(path);
  }, [phase, path]);
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
