import { memo, useState } from "react";
import type { ToolBlock, ToolBlockStatus } from "../../shared/store/types";
import { TID } from "../../shared/testids";
import { CallChangesView } from "../checkpoints/CallChangesView";
import { WaitingForCheckpoint } from "../checkpoints/FirstLook";
import { ForwardedPorts } from "./ForwardedPorts";
import { NetworkDecisions } from "./NetworkDecisions";
import { BoxRefused } from "./BoxRefused";
import { ReadableOffers } from "./ReadableOffers";
import { GitAsideOffers } from "./GitAsideOffers";
import { RuleKept } from "./RuleKept";
import { SandboxBadge } from "./SandboxBadge";
import { StatusIcon } from "./StatusIcon";
import { ToolBody } from "./ToolBody";
import { CommandTail } from "./CommandTail";
import { ImageThumbnails } from "../../shared/ui/Images";
import { VisibleText } from "../../shared/ui/VisibleText";
import { isTerminal } from "../../shared/store/reducer";
import { categoryIn, mcpIn, useToolCatalog } from "../../shared/toolCatalog";
import { toolIcon, toolKind, toolSummary } from "./summary";
import "./tools.css";

const ACTIVE: ReadonlySet<ToolBlockStatus> = new Set(["running", "awaiting_approval"]);

/** The DOM id of a tool block, for the approval dialog to scroll to. */
export const toolBlockDomId = (toolId: string) => `tool-${toolId}`;

// Memoized: a block re-renders when its own tool object (or highlight) changes.
export const ToolCallBlock = memo(function ToolCallBlock({
  tool,
  highlighted = false,
  waitingFiles = null,
}: {
  tool: ToolBlock;
  highlighted?: boolean;
  /** Files Warden's first look at the project has seen, while this call waits for it (its checkpoint). */
  waitingFiles?: number | null;
}) {
  // Open while it runs or waits for approval, closed when done — unless the user chose, for this status.
  const [choice, setChoice] = useState<{ status: ToolBlockStatus; open: boolean } | null>(null);
  const open = choice && choice.status === tool.status ? choice.open : ACTIVE.has(tool.status);
  const summary = toolSummary(tool.toolName, tool.input);
  // A block from a loaded history has no category (nor MCP server) of its own: the engine's catalog says.
  const catalog = useToolCatalog(tool.category === null && tool.toolName !== "");
  const kind = toolKind(tool.category ?? categoryIn(catalog, tool.toolName));
  const mcp = tool.mcp ?? mcpIn(catalog, tool.toolName);
  const name = mcp ? mcp.tool : tool.toolName || "tool";
  const report = tool.report;
  return (
    <section
      id={toolBlockDomId(tool.toolId)}
      className={`tool-block tool-block-${tool.status}${highlighted ? " tool-block-highlighted" : ""}`}
      data-testid={TID.toolBlock}
      data-tool-id={tool.toolId}
      data-tool-name={tool.toolName}
      data-status={tool.status}
      aria-label={mcp ? `${name} (MCP server ${mcp.server}) ${summary}` : `${name} ${summary}`}
    >
      <button
        type="button"
        className="tool-header"
        data-testid={TID.toolToggle}
        aria-expanded={open}
        onClick={() => setChoice({ status: tool.status, open: !open })}
      >
        <span className="tool-icon" aria-hidden>
          {toolIcon(kind)}
        </span>
        <span className="tool-name">
          <VisibleText text={name} />
        </span>
        {mcp && (
          <span className="tool-server" data-testid={TID.toolServer} title={`A tool of the MCP server ${mcp.server}`}>
            {mcp.server}
          </span>
        )}
        <span className="tool-summary">
          <VisibleText text={summary} />
        </span>
        <SandboxBadge sandbox={report?.sandbox} />
        <StatusIcon status={tool.status} />
      </button>
      {waitingFiles !== null && <WaitingForCheckpoint files={waitingFiles} />}
      <RuleKept rule={report?.rule} />
      <ForwardedPorts ports={report?.forwardedPorts} />
      <NetworkDecisions decisions={report?.network} />
      <BoxRefused refused={report?.boxRefused} />
      <ReadableOffers conversationId={tool.conversationId} paths={report?.readableOffers} />
      <GitAsideOffers conversationId={tool.conversationId} kept={report?.gitAside} />
      <CallChangesView changes={report?.changes} />
      {tool.images && tool.images.length > 0 && (
        <ImageThumbnails images={tool.images} label={`Images ${name} returned`} testId={TID.toolImages} />
      )}
      {open ? <ToolBody tool={tool} kind={kind} /> : kind === "bash" && isTerminal(tool.status) && <CommandTail tool={tool} />}
    </section>
  );
});
