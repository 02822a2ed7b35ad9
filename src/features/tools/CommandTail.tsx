// A finished command, folded: its last lines stay in view with how it ended and how long it took,
// so folding the block does not hide the output just watched.
import type { ToolBlock } from "../../shared/store/types";
import { textOf } from "../../shared/store/textBuffer";
import { TID } from "../../shared/testids";
import { parseAnsi } from "./ansi";

/** Lines of output kept in view. */
export const TAIL_LINES = 3;

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function CommandTail({ tool }: { tool: ToolBlock }) {
  const output = parseAnsi(textOf(tool.output) || tool.result || "")
    .map((span) => span.text)
    .join("");
  const lines = output.split("\n").filter((l) => l.trim() !== "");
  const tail = lines.slice(-TAIL_LINES);
  const exit = tool.report?.command?.exitCode ?? null;
  const ms = tool.report?.durationMs ?? null;
  const ending = [exit === null ? null : `exit ${exit}`, ms === null ? null : formatDuration(ms)].filter(Boolean).join(" · ");
  if (!tail.length && !ending) return null;
  return (
    <div className="command-tail" data-testid={TID.commandTail} data-exit-code={exit ?? undefined}>
      {tail.length > 0 && <pre className="command-tail-lines">{tail.join("\n")}</pre>}
      {ending && <span className={exit === 0 || exit === null ? "muted small" : "command-tail-failed small"}>{ending}</span>}
    </div>
  );
}
