// Settings → Instructions: the user's global instructions (every project, every conversation) and
// the project's instruction files in use. Both reach the model after Warden's own prompt.
import type { Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { InstructionFileList, sizeOf } from "../instructions/InstructionFileList";
import { useInstructionsInUse } from "../instructions/useInstructionsInUse";

/** What of the global instructions reaches the model (the engine's cap, in bytes of UTF-8). */
export const GLOBAL_INSTRUCTIONS_CAP = 16 * 1024;

export function InstructionsSection({
  settings,
  onChange,
  savedCount,
}: {
  settings: Settings;
  onChange: (s: Settings) => void;
  /** Saves that landed so far: the files in use are asked again after each. */
  savedCount: number;
}) {
  const inUse = useInstructionsInUse(`${settings.projectDir ?? ""}#${savedCount}`);
  const text = settings.globalInstructions ?? "";
  const bytes = new TextEncoder().encode(text.trim()).length;
  return (
    <section className="settings-section">
      <h3>Instructions</h3>
      <p className="muted small">
        The model reads these besides Warden's own instructions: yours first, then the project's. A conversation takes them up
        with its next message.
      </p>
      <label>
        Global instructions — for every project (how you like answers, your conventions)
        <textarea
          rows={5}
          data-testid={TID.globalInstructions}
          value={text}
          placeholder="e.g. Answer briefly. Use British spelling in comments."
          onChange={(e) => onChange({ ...settings, globalInstructions: e.target.value })}
        />
      </label>
      {bytes > GLOBAL_INSTRUCTIONS_CAP && (
        <p className="field-error" role="status" data-testid={TID.globalInstructionsTooLong}>
          {sizeOf(bytes)}: only the first {sizeOf(GLOBAL_INSTRUCTIONS_CAP)} reach the model.
        </p>
      )}
      <div className="instructions-in-project">
        <span>In this project: </span>
        {!settings.projectDir ? (
          <span className="muted">no project folder chosen.</span>
        ) : inUse === null ? (
          <span className="muted">looking…</span>
        ) : inUse.files.length === 0 ? (
          <span className="muted" data-testid={TID.instructionFilesNone}>
            no AGENTS.md (or CLAUDE.md) in the project folder.
          </span>
        ) : (
          <InstructionFileList files={inUse.files} />
        )}
      </div>
    </section>
  );
}
