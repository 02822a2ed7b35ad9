// The steps of putting files back and taking that back, as a reducer: a restore (or its undo) is
// planned and shown (the files it changes, what it stops) for the user's yes, then done, refused
// because files changed outside Warden (the user may insist), or failed (a turn is running, the
// store could not be used). Pure; `useRestore` drives it.
import type { RestorePlan, RestoreReport } from "../../shared/ipc";

export type RestoreAction = "restore" | "undo";

export type RestoreFlow =
  | { phase: "idle" }
  /** Finding out what the restore would do. */
  | { phase: "planning"; action: RestoreAction; report: RestoreReport | null }
  /** Shown to the user: it runs only on their yes. */
  | { phase: "confirming"; action: RestoreAction; plan: RestorePlan; report: RestoreReport | null }
  | { phase: "working"; action: RestoreAction; force: boolean; report: RestoreReport | null }
  /** Files changed outside Warden would be overwritten: they are named, and forcing is offered. */
  | { phase: "refused"; action: RestoreAction; paths: string[]; message: string; report: RestoreReport | null }
  | { phase: "failed"; action: RestoreAction; message: string; report: RestoreReport | null }
  /** Done: `report.undoCheckpointId` takes it back. */
  | { phase: "restored"; report: RestoreReport }
  | { phase: "undone"; report: RestoreReport };

export type RestoreEvent =
  | { type: "plan"; action: RestoreAction }
  | { type: "planned"; plan: RestorePlan }
  | { type: "start"; action: RestoreAction; force: boolean }
  | { type: "done"; report: RestoreReport }
  | { type: "refused"; paths: string[]; message: string }
  | { type: "failed"; message: string }
  | { type: "dismiss" };

export const idle: RestoreFlow = { phase: "idle" };

/** The restore being undone, or whose undo is under way or stuck. */
function reportOf(flow: RestoreFlow): RestoreReport | null {
  return "report" in flow ? flow.report : null;
}

/** Whether the flow waits on the engine (a plan or a restore under way). */
export function busy(flow: RestoreFlow): boolean {
  return flow.phase === "working" || flow.phase === "planning";
}

export function restoreFlow(flow: RestoreFlow, event: RestoreEvent): RestoreFlow {
  switch (event.type) {
    case "plan": {
      if (busy(flow)) return flow;
      const report = reportOf(flow);
      if (event.action === "undo" && (!report || flow.phase === "undone")) return flow;
      return { phase: "planning", action: event.action, report: event.action === "undo" ? report : null };
    }
    case "planned":
      if (flow.phase !== "planning") return flow;
      return { phase: "confirming", action: flow.action, plan: event.plan, report: flow.report };
    case "start": {
      if (busy(flow)) return flow;
      const report = reportOf(flow);
      // Undoing needs a restore to undo.
      if (event.action === "undo" && (!report || flow.phase === "undone")) return flow;
      return { phase: "working", action: event.action, force: event.force, report: event.action === "undo" ? report : null };
    }
    case "done":
      if (flow.phase !== "working") return flow;
      // Undone: the report kept is the restore that was taken back.
      return flow.action === "undo" && flow.report ? { phase: "undone", report: flow.report } : { phase: "restored", report: event.report };
    case "refused":
      if (flow.phase !== "working") return flow;
      return { phase: "refused", action: flow.action, paths: event.paths, message: event.message, report: flow.report };
    case "failed":
      if (flow.phase !== "working" && flow.phase !== "planning") return flow;
      return { phase: "failed", action: flow.action, message: event.message, report: flow.report };
    case "dismiss":
      if (busy(flow)) return flow;
      // Cancelling the question about an undo keeps the restore it would have undone.
      if (flow.phase === "confirming" && flow.action === "undo" && flow.report) return { phase: "restored", report: flow.report };
      return idle;
    default:
      return flow;
  }
}
