import { InstructionsIndicator } from "../features/instructions/InstructionsIndicator";
import { TID } from "../shared/testids";

/**
 * The bar above everything: the project folder (or the way to choose one), the instructions in use,
 * Settings and Shortcuts.
 */
export function TopBar({
  projectDir,
  instructionsKey,
  settingsOpen,
  onOpenSettings,
  onToggleSettings,
  onShortcuts,
}: {
  projectDir: string | null;
  /** The instructions are asked for again when this changes. */
  instructionsKey: string;
  settingsOpen: boolean;
  onOpenSettings: () => void;
  onToggleSettings: () => void;
  onShortcuts: () => void;
}) {
  return (
    <header className="topbar">
      <span className="brand">Warden</span>
      {projectDir ? (
        <span className="topbar-project" title={projectDir}>
          {projectDir}
        </span>
      ) : (
        <button
          type="button"
          className="link topbar-project topbar-no-project"
          data-testid={TID.noProject}
          title="Choose the folder Warden may work in"
          onClick={onOpenSettings}
        >
          No project folder: file tools and commands are off — choose one
        </button>
      )}
      <InstructionsIndicator refreshKey={instructionsKey} />
      <button
        type="button"
        className="link"
        data-testid={TID.settingsOpen}
        aria-pressed={settingsOpen}
        onClick={onToggleSettings}
      >
        Settings
      </button>
      <button type="button" className="link" data-testid={TID.shortcutsOpen} onClick={onShortcuts}>
        Shortcuts
      </button>
    </header>
  );
}
