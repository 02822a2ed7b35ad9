// The expanded part of a tool block: one renderer per kind of tool, JSON for the rest.
import type { JsonValue } from "../../shared/ipc";
import type { ToolBlock } from "../../shared/store/types";
import { isTerminal } from "../../shared/store/reducer";
import { textOf } from "../../shared/store/textBuffer";
import { TID } from "../../shared/testids";
import { BashOutput } from "./renderers/BashOutput";
import { DiffView } from "./renderers/DiffView";
import { JsonView } from "./renderers/JsonView";
import { CappedPre } from "./renderers/ShowMore";
import { SearchHitList } from "./renderers/SearchHitList";
import type { ToolKind } from "./summary";

/** The diff of a file change: from the approval preview, else from the result's report. */
export function toolDiff(tool: ToolBlock): { diff: string; path?: string } | null {
  const p = tool.confirm?.preview;
  if (p && p.kind === "diff") return { diff: p.diff, path: p.path };
  return tool.report?.diff ?? null;
}

function InputView({ tool }: { tool: ToolBlock }) {
  const input = tool.input as JsonValue;
  const command =
    input && typeof input === "object" && !Array.isArray(input) && typeof input["command"] === "string" ? input["command"] : null;
  return (
    <div className="tool-section" data-testid={TID.toolInput}>
      <div className="tool-section-title">Input</div>
      {command !== null ? <CappedPre className="code-line" text={command} visible /> : <JsonView value={input ?? {}} />}
    </div>
  );
}

function OutputView({ tool, kind }: { tool: ToolBlock; kind: ToolKind }) {
  const streamed = textOf(tool.output);
  const failedNote =
    tool.status === "error" || tool.status === "denied" || tool.status === "expired" || tool.status === "cancelled" ? (
      <p className={`tool-note tool-note-${tool.status}`}>
        {tool.errorCode ? <code>{tool.errorCode}</code> : null}
        {tool.newerCode ? (
          <>
            <code>{tool.newerCode}</code> (a reason from a newer Warden)
          </>
        ) : null}{" "}
        {kind === "bash" && streamed ? tool.result : null}
      </p>
    ) : null;

  if (kind === "bash") {
    // Nothing has run yet: an empty terminal would suggest it ran and printed nothing.
    if (tool.status === "awaiting_approval" && !streamed) return null;
    return (
      <>
        {failedNote}
        {/* Past the live cap, the finished result (the engine keeps head and tail) says more than the head alone. */}
        {streamed && !(tool.outputDropped > 0 && tool.result && isTerminal(tool.status)) ? (
          <BashOutput text={streamed} stderr={tool.stderr} dropped={tool.outputDropped} />
        ) : (
          <BashOutput text={tool.result ?? streamed} />
        )}
      </>
    );
  }
  if (tool.status === "running" || tool.status === "awaiting_approval") {
    const d = kind === "file-change" ? toolDiff(tool) : null;
    if (d) return <DiffView diff={d.diff} path={d.path} />;
    return streamed ? <CappedPre className="plain-output" testId={TID.plainOutput} text={streamed} /> : null;
  }
  if (tool.status !== "success") {
    return (
      <>
        {failedNote}
        {tool.result && <CappedPre className="plain-output" testId={TID.plainOutput} text={tool.result} />}
      </>
    );
  }
  if (kind === "file-change") {
    const d = toolDiff(tool);
    return (
      <>
        {d && <DiffView diff={d.diff} path={d.path} />}
        {tool.result && <CappedPre className="plain-output" testId={TID.plainOutput} text={tool.result} />}
      </>
    );
  }
  const hits = tool.report?.hits;
  if (hits) return <SearchHitList hits={hits.items} capped={hits.capped} />;
  if (tool.result) return <CappedPre className="plain-output" testId={TID.plainOutput} text={tool.result} />;
  return <JsonView value={tool.metadata ?? null} />;
}

export function ToolBody({ tool, kind }: { tool: ToolBlock; kind: ToolKind }) {
  if (tool.status === "awaiting_approval" && !textOf(tool.output)) {
    // The approval card shows the command or the diff; showing it here too would say it twice.
    return (
      <div className="tool-body">
        <p className="muted small" data-testid={TID.toolAwaiting}>
          Waiting for your answer: the request below shows what would run.
        </p>
      </div>
    );
  }
  // A file change shows its diff; its raw input (path and content) would only repeat it.
  const diff = kind === "file-change" ? toolDiff(tool) : null;
  return (
    <div className="tool-body">
      {!diff && <InputView tool={tool} />}
      <div className="tool-section" data-testid={TID.toolOutput}>
        <OutputView tool={tool} kind={kind} />
      </div>
    </div>
  );
}
