import { TID } from "../../shared/testids";
import type { SaveState } from "./useSettingsDraft";

/** Settings' foot: whether the changes are saved, and "Try again" when saving failed. */
export function SaveStatus({ save, onRetry }: { save: SaveState; onRetry: () => void }) {
  return (
    <footer className="settings-foot">
      <span className="save-state" data-testid={TID.settingsSaved} role="status">
        {save.state === "saving" && "Saving…"}
        {save.state === "saved" && "Saved ✓"}
        {save.state === "error" && `Not saved: ${save.message}`}
      </span>
      {save.state === "error" && (
        <button type="button" data-testid={TID.settingsSave} onClick={onRetry}>
          Try again
        </button>
      )}
    </footer>
  );
}
