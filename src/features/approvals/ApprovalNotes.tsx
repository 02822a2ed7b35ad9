import type { ToolConfirm } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { askedBecauseText } from "./askedBecause";
import { badgeLabel, hiddenIn, stringsIn } from "../../shared/hiddenChars";

/**
 * Why the card asks (the engine's reason, or what it was asked because of, and the rule that
 * decided), and what to be careful of in what it shows: characters that hide or reorder text, and
 * a command too long to take in at a glance. `summary` is the call's summary as the card shows it.
 */
export function ApprovalNotes({ request, summary }: { request: ToolConfirm; summary: string }) {
  const preview = request.preview;
  const askedBecause = !request.reason && request.askedBecause ? askedBecauseText(request.askedBecause) : "";
  // Everything the dialog shows, scanned for characters that would make it show something else.
  const shown = [
    summary,
    ...stringsIn(request.input),
    ...(preview?.kind === "command" ? [preview.command, preview.cwd] : []),
    ...(preview?.kind === "diff" ? [preview.path, preview.diff] : []),
  ];
  const hidden = hiddenIn(shown.join(""));
  const command = preview?.kind === "command" ? preview.command : null;
  const commandLines = command === null ? 0 : command.split("\n").length;
  const longCommand = command !== null && (commandLines > 15 || command.length > 1000);
  return (
    <>
      {request.reason && (
        <p
          className={request.reason.startsWith("Dangerous:") ? "approval-warning" : "approval-why"}
          role={request.reason.startsWith("Dangerous:") ? "alert" : undefined}
          data-testid={TID.approvalWhy}
        >
          {request.reason}
        </p>
      )}
      {askedBecause && (
        <p className="approval-why" data-testid={TID.approvalWhy}>
          {askedBecause}
        </p>
      )}
      {request.rule && (
        <p className="approval-why" data-testid={TID.approvalRule}>
          Rule: <code>{request.rule}</code>
        </p>
      )}
      {hidden.length > 0 && (
        <p className="approval-warning" role="alert" data-testid={TID.approvalHiddenWarning}>
          Careful: this request contains {hidden.length === 1 ? "a character" : "characters"} that
          can hide or reorder what is shown ({hidden.map(badgeLabel).join(" ")}). They are marked in
          the command and paths below (not inside file contents); what runs is the text with them,
          not what it looks like.
        </p>
      )}
      {longCommand && (
        <p className="approval-warning" data-testid={TID.approvalLongWarning}>
          This command is long ({commandLines} {commandLines === 1 ? "line" : "lines"},{" "}
          {command?.length} characters): read all of it before approving.
        </p>
      )}
    </>
  );
}
