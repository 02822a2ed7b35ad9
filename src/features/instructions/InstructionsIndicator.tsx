// The top bar's "Using AGENTS.md": which instructions the model reads besides Warden's own, with
// the files one click away. Shows nothing when there are none.
import { useState } from "react";
import { TID } from "../../shared/testids";
import { InstructionFileList } from "./InstructionFileList";
import { useInstructionsInUse } from "./useInstructionsInUse";

/** "AGENTS.md", "AGENTS.md + global instructions", "AGENTS.md + 2 more". */
export function inUseLabel(files: string[], global: boolean): string {
  const names = [...files, ...(global ? ["global instructions"] : [])];
  return names.length <= 2 ? names.join(" + ") : `${names[0]} + ${names.length - 1} more`;
}

/** `remote`: a linked remote project's conversation is shown; its instructions are read on its machine. */
export function InstructionsIndicator({ refreshKey, remote = null }: { refreshKey: string; remote?: { conversationId: string; host: string } | null }) {
  const inUse = useInstructionsInUse(refreshKey, remote?.conversationId ?? null);
  const [open, setOpen] = useState(false);
  if (!inUse || (inUse.files.length === 0 && !inUse.global)) return null;
  return (
    <span
      className="instructions-indicator"
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) {
          e.preventDefault();
          setOpen(false);
        }
      }}
    >
      <button
        type="button"
        className="link"
        data-testid={TID.instructionsIndicator}
        aria-expanded={open}
        title="Instructions the model reads besides Warden's own"
        onClick={() => setOpen(!open)}
      >
        Using {inUseLabel(
          inUse.files.map((f) => f.relativePath),
          inUse.global,
        )}
      </button>
      {open && (
        <div className="instructions-popover" role="group" aria-label="Instructions in use" data-testid={TID.instructionsInUse}>
          {inUse.files.length > 0 && (
            <>
              <p className="muted small">
                The project's instruction files, root first (read when a conversation starts){remote ? `, on ${remote.host}` : ""}:
              </p>
              <InstructionFileList files={inUse.files} there={remote?.host ?? null} />
            </>
          )}
          {inUse.global && <p className="muted small">Your global instructions (Settings → Instructions).</p>}
          <button type="button" className="link" onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      )}
    </span>
  );
}
