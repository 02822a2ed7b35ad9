// The button that folds the conversation list away or brings it back (Ctrl+B does the same).
import { TID } from "../../../shared/testids";

export function SidebarToggle({ hidden, onToggle }: { hidden: boolean; onToggle: () => void }) {
  const what = hidden ? "Show the conversation list" : "Hide the conversation list";
  return (
    <button
      type="button"
      className="sidebar-toggle"
      data-testid={TID.sidebarToggle}
      aria-label={what}
      title={`${what} (Ctrl+B)`}
      onClick={onToggle}
    >
      {hidden ? "»" : "«"}
    </button>
  );
}
