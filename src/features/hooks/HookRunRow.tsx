// One hook run in the transcript (docs/HOOKS.md): a collapsed line saying which event's hook ran,
// what it decided, whose it is, whether it ran outside the box and how long it took; opened, its
// exact command, how it ended and what it printed. Everything a hook printed is untrusted text: it
// is shown as text (never markup), hidden characters as badges. A call's runs come back with a
// reopened conversation (its saved report keeps them); a message's runs show while the window is
// open only.
import { memo, useState } from "react";
import type { HookRun } from "../../shared/ipc";
import { firstLine } from "../../shared/format";
import { TID } from "../../shared/testids";
import { VisibleText, WRAP } from "../../shared/ui/VisibleText";
import { formatDuration } from "../tools/CommandTail";
import "./hooks.css";

/** Where a run hangs in the transcript: under a tool call, in a message, or in the conversation. */
export type HookPlace = "tool" | "message" | "conversation";

/** How the outcome reads at a glance: a block stands out, a failure warns, the rest is quiet. */
function outcomeKind(outcome: string): "blocked" | "failed" | "plain" {
  if (outcome.startsWith("blocked")) return "blocked";
  if (outcome.startsWith("failed")) return "failed";
  return "plain";
}

function endingWords(run: HookRun): string {
  if (run.timedOut) return "Timed out: it was stopped at its time limit, and the turn went on as if it had said nothing.";
  if (run.exitCode === null) return "No exit code: it was stopped.";
  return `Exit code ${run.exitCode}`;
}

export const HookRunRow = memo(function HookRunRow({ run, place }: { run: HookRun; place: HookPlace }) {
  const [open, setOpen] = useState(false);
  const kind = outcomeKind(run.outcome);
  return (
    <div
      className={`hook-run hook-run-${place}`}
      data-testid={TID.hookRun}
      data-hook-event={run.hookEvent}
      data-origin={run.origin}
      data-contained={String(run.contained)}
      data-place={place}
    >
      <button
        type="button"
        className="hook-run-toggle"
        data-testid={TID.hookRunToggle}
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <span aria-hidden>{open ? "▾" : "▸"}</span>
        <span className="hook-run-icon" aria-hidden>
          ⚓
        </span>
        <span className={`hook-run-line hook-run-${kind}`}>
          Hook · {run.hookEvent} · <VisibleText text={firstLine(run.outcome, 120)} />
        </span>
        <span className="badge" title={run.origin === "project" ? "From the project's .claude/settings.json" : "From your settings"}>
          {run.origin === "project" ? "project" : "yours"}
        </span>
        {!run.contained && (
          <span className="badge badge-dangerous" title="It ran with your full access: no box contained it">
            outside the box
          </span>
        )}
        <span className="muted small">{formatDuration(run.durationMs)}</span>
      </button>
      {open && <HookRunDetails run={run} />}
    </div>
  );
});

function HookRunDetails({ run }: { run: HookRun }) {
  return (
    <div className="hook-run-details">
      <div className="muted small">Command</div>
      <pre className="hook-run-pre" style={WRAP} data-testid={TID.hookRunCommand}>
        <VisibleText text={run.command} />
      </pre>
      <p className="small" data-testid={TID.hookRunExit}>
        {endingWords(run)} · {formatDuration(run.durationMs)}
        {!run.contained && " · ran outside the box, with your full access"}
      </p>
      <p className="small">
        Decided: <VisibleText text={run.outcome} />
      </p>
      {run.output ? (
        <>
          <div className="muted small">What it printed (the start)</div>
          <pre className="hook-run-pre" style={WRAP} data-testid={TID.hookRunOutput}>
            <VisibleText text={run.output} />
          </pre>
        </>
      ) : (
        <p className="muted small" data-testid={TID.hookRunOutput}>
          It printed nothing.
        </p>
      )}
    </div>
  );
}

/** The runs of one place, in the order they came. */
export function HookRunRows({ runs, place }: { runs: readonly HookRun[] | undefined; place: HookPlace }) {
  if (!runs?.length) return null;
  return (
    <div className="hook-runs">
      {runs.map((run, i) => (
        <HookRunRow key={i} run={run} place={place} />
      ))}
    </div>
  );
}
