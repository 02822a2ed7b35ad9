import type { NetworkRequest } from "../../shared/ipc";
import type { ToolConfirm } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import type { ApprovalTimer } from "./useApprovalTimer";
import { VisibleText } from "../../shared/ui/VisibleText";

/**
 * The card's title (the tool, or the host the sandbox wants to reach), its danger, its place in the
 * queue and its countdown.
 */
export function ApprovalHead({
  request,
  network,
  titleId,
  position,
  total,
  timer: { limited, expired, urgent, remaining },
}: {
  request: ToolConfirm;
  network: NetworkRequest | null;
  titleId: string;
  position: number;
  total: number;
  timer: ApprovalTimer;
}) {
  return (
    <header className="approval-head">
      {network ? (
        <h2 id={titleId}>
          Allow the sandbox to reach{" "}
          <code className="approval-text" data-testid={TID.approvalHost}>
            <VisibleText text={`${network.host}:${network.port}`} />
          </code>
          ?
        </h2>
      ) : (
        <h2 id={titleId}>
          Allow <code>{request.mcp?.tool ?? request.toolName}</code>
          {request.mcp && (
            <>
              {" "}
              from the MCP server <strong>{request.mcp.server}</strong>
            </>
          )}
          ?
        </h2>
      )}
      <span className={`badge badge-${request.dangerLevel}`} data-testid={TID.approvalDanger}>
        {network ? "network" : request.dangerLevel === "dangerous" ? "can change your machine" : "read-only"}
      </span>
      {total > 1 && (
        <span className="approval-position" data-testid={TID.approvalPosition}>
          {position} of {total}
        </span>
      )}
      <span
        className={urgent ? "approval-countdown approval-urgent" : "approval-countdown"}
        data-testid={TID.approvalCountdown}
        data-urgent={urgent || undefined}
        aria-live={urgent ? "assertive" : "polite"}
      >
        {!limited ? "no time limit" : expired ? "Timed out — not run" : urgent ? `${remaining} s left` : `${remaining} s`}
      </span>
    </header>
  );
}
