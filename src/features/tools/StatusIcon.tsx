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

/** States a glyph alone does not tell: they say so in words beside it. */
const WORDS: Partial<Record<ToolBlockStatus, string>> = {
  expired: "Timed out",
};

export function StatusIcon({ status }: { status: ToolBlockStatus }) {
  if (status === "running") {
    return (
      <span className={`tool-status tool-status-${status}`} data-testid={TID.toolStatus} title={LABELS[status]}>
        <span className="spinner" role="progressbar" aria-label={LABELS[status]} />
      </span>
    );
  }
  const words = WORDS[status];
  return (
    <span className={`tool-status tool-status-${status}`} data-testid={TID.toolStatus} title={LABELS[status]}>
      {words ? (
        <>
          <span aria-hidden>{GLYPHS[status]}</span> <span className="tool-status-words">{words}</span>
        </>
      ) : (
        <span role="img" aria-label={LABELS[status]}>
          {GLYPHS[status]}
        </span>
      )}
    </span>
  );
}
