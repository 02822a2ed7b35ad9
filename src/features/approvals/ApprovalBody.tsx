import type { NetworkRequest } from "../../shared/ipc";
import type { ToolConfirm } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { DiffView } from "../tools/renderers/DiffView";
import { JsonView } from "../tools/renderers/JsonView";
import { toolSummary } from "../tools/summary";
import { VisibleText, WRAP } from "../../shared/ui/VisibleText";

/**
 * What the card asks about: the host and the command it is for, the command and where it runs, the
 * change to a file, or the call's input.
 */
export function ApprovalBody({
  request,
  network,
  summary,
}: {
  request: ToolConfirm;
  network: NetworkRequest | null;
  /** The call's summary, as the card shows it. */
  summary: string;
}) {
  const preview = request.preview;
  return network ? (
    <div className="approval-body">
      {network.reach && (
        <p className="approval-warning" data-testid={TID.approvalReach}>
          {network.host} leads to {network.reach}, not the public internet.
        </p>
      )}
      {request.toolId && (
        <p className="muted">
          while <code className="approval-text">{toolSummary(request.toolName, request.input)}</code> runs; a
          command that gives up waiting can be run again once you answer.
        </p>
      )}
    </div>
  ) : preview?.kind === "command" ? (
    <div className="approval-body">
      <pre className="code-line approval-text" style={WRAP} data-testid={TID.approvalCommand}>
        <VisibleText text={preview.command} />
      </pre>
      <p className="muted">
        in{" "}
        <code className="approval-text" style={WRAP} data-testid={TID.approvalCwd}>
          <VisibleText text={preview.cwd} />
        </code>
      </p>
    </div>
  ) : preview?.kind === "diff" ? (
    <div className="approval-body">
      <p>
        <code className="approval-text" style={WRAP} data-testid={TID.approvalPath}>
          <VisibleText text={preview.path} />
        </code>
      </p>
      <DiffView diff={preview.diff} path={preview.path} />
    </div>
  ) : (
    <div className="approval-body">
      <p className="approval-text" style={WRAP} data-testid={TID.approvalPath}>
        <VisibleText text={summary} />
      </p>
      <JsonView value={request.input} />
    </div>
  );
}
