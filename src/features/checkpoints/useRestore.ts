// Drives restoreFlow with the real command: restore `paths` (all files when empty) of checkpoint
// `id`, and undo that by restoring the same paths of the checkpoint the restore recorded first.
import { useCallback, useReducer } from "react";
import { api, CommandError } from "../../shared/ipc";
import { idle, restoreFlow, type RestoreAction, type RestoreFlow } from "./restoreFlow";
import { messageOf } from "../../shared/format";

export interface Restore {
  flow: RestoreFlow;
  restore: (force?: boolean) => Promise<void>;
  undo: (force?: boolean) => Promise<void>;
  dismiss: () => void;
}

export function useRestore(id: string | null, paths: readonly string[] = []): Restore {
  const [flow, dispatch] = useReducer(restoreFlow, idle);
  const pathKey = paths.join("\0");

  const run = useCallback(
    async (action: RestoreAction, target: string | null, force: boolean) => {
      if (!target) return;
      dispatch({ type: "start", action, force });
      try {
        const report = await api.checkpointRestore(target, pathKey ? pathKey.split("\0") : [], force);
        dispatch({ type: "done", report });
      } catch (e) {
        if (e instanceof CommandError && e.code === "CHANGED_OUTSIDE") {
          dispatch({ type: "refused", paths: e.paths, message: e.message });
        } else {
          dispatch({ type: "failed", message: messageOf(e) });
        }
      }
    },
    [pathKey],
  );

  const undoId = "report" in flow && flow.report ? flow.report.undoCheckpointId : null;
  return {
    flow,
    restore: (force = false) => run("restore", id, force),
    undo: (force = false) => run("undo", undoId, force),
    dismiss: () => dispatch({ type: "dismiss" }),
  };
}
