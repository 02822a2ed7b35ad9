// How a tool block's status follows from a result: which statuses are final, and how a failed
// result's code reads (a refusal, a timed-out approval and a cancellation are not tool errors).
import type { ToolResult } from "../ipc";
import type { ToolBlockStatus } from "./types";

const TERMINAL: ReadonlySet<ToolBlockStatus> = new Set(["success", "error", "denied", "expired", "cancelled"]);
export const isTerminal = (s: ToolBlockStatus) => TERMINAL.has(s);

/** How a failed tool result is shown: refusals and cancellations are not errors of the tool. */
export function statusFromResult(r: Pick<ToolResult, "status">, code: string | null): ToolBlockStatus {
  if (r.status === "success") return "success";
  switch (code) {
    case "USER_REJECTED":
    case "BLOCKED_COMMAND":
      return "denied";
    case "APPROVAL_TIMEOUT":
      return "expired";
    case "CANCELLED":
      return "cancelled";
    default:
      return "error";
  }
}
