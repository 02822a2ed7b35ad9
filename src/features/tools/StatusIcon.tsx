import { TID } from "../../shared/testids";
import type { ToolBlockStatus } from "../../shared/store/types";

const LABELS: Record<ToolBlockStatus, string> = {
  running: "Running",
  awaiting_approval: "Waiting for your approval",
  success: "Done",
  error: "Failed",
  denied: "Not allowed",
  expired: "Timed out: nobody approved it in time",
  cancelled: "Cancelled",
};

const GLYPHS: Record<Exclude<ToolBlockStatus, "running">, string> = {
  awaiting_approval: "?",
  success: "✓",
  error: "✕",
  denied: "⊘",
  expired: "⏱",
  cancelled: "■",
};

export function statusLabel(status: ToolBlockStatus): string {
  return LABELS[status];
}

export function StatusIcon({ status }: { status: ToolBlockStatus }) {
  return (
    <span className={`tool-status tool-status-${status}`} data-testid={TID.toolStatus} title={LABELS[status]}>
      {status === "running" ? <span className="spinner" role="progressbar" aria-label={LABELS[status]} /> : <span aria-label={LABELS[status]}>{GLYPHS[status]}</span>}
    </span>
  );
}
