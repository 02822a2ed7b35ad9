// Drives restoreFlow with the real commands: restoring `paths` (all files when empty) of
// checkpoint `id` is first planned (what it changes, what it stops) and shown; on the user's yes
// it runs, stopping what runs in the project. Undo restores the same paths of the checkpoint the
// restore recorded first, after the same question.
import { useCallback, useReducer } from "react";
import { api, CommandError } from "../../shared/ipc";
import { busy, idle, restoreFlow, type RestoreAction, type RestoreFlow } from "./restoreFlow";
import { messageOf } from "../../shared/format";
import { useConversationId } from "../../shared/conversationId";

export interface Restore {
  flow: RestoreFlow;
  /** Ask: what restoring would do is shown, for `confirm`. */
  restore: () => Promise<void>;
  undo: () => Promise<void>;
  /** The user's yes to what is shown (or to overwriting files changed outside Warden: `force`). */
  confirm: (force?: boolean) => Promise<void>;
  dismiss: () => void;
}

export function useRestore(id: string | null, paths: readonly string[] = []): Restore {
  const [flow, dispatch] = useReducer(restoreFlow, idle);
  const pathKey = paths.join("\0");
  const pathList = useCallback(() => (pathKey ? pathKey.split("\0") : []), [pathKey]);
  // The transcript's conversation: a remote project's checkpoints are restored on its machine.
  const conversationId = useConversationId();

  const plan = useCallback(
    async (action: RestoreAction, target: string | null) => {
      if (!target) return;
      dispatch({ type: "plan", action });
      try {
        dispatch({ type: "planned", plan: await api.checkpointRestorePlan(conversationId, target, pathList()) });
      } catch (e) {
        dispatch({ type: "failed", message: messageOf(e) });
      }
    },
    [conversationId, pathList],
  );

  const run = useCallback(
    async (action: RestoreAction, target: string | null, force: boolean) => {
      if (!target) return;
      dispatch({ type: "start", action, force });
      try {
        const report = await api.checkpointRestore(conversationId, target, pathList(), force);
        dispatch({ type: "done", report });
      } catch (e) {
        if (e instanceof CommandError && e.code === "CHANGED_OUTSIDE") {
          dispatch({ type: "refused", paths: e.paths, message: e.message });
        } else {
          dispatch({ type: "failed", message: messageOf(e) });
        }
      }
    },
    [conversationId, pathList],
  );

  const undoId = "report" in flow && flow.report ? flow.report.undoCheckpointId : null;
  const action: RestoreAction | null = "action" in flow ? flow.action : null;
  return {
    flow,
    restore: () => plan("restore", id),
    undo: () => plan("undo", undoId),
    confirm: (force = false) => (busy(flow) || !action ? Promise.resolve() : run(action, action === "undo" ? undoId : id, force)),
    dismiss: () => dispatch({ type: "dismiss" }),
  };
}
