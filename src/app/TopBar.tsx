import { InstructionsIndicator } from "../features/instructions/InstructionsIndicator";
import { ConversationCostLine } from "../features/cost/ConversationCostLine";
import { TID } from "../shared/testids";
import { RemoteProjectLabel } from "../features/remote/RemoteProjectLabel";
import type { RemoteProject } from "../features/remote/remoteStore";

/**
 * The bar above everything: the project folder (or the way to choose one; the project on the other
 * machine while a remote conversation is shown), the instructions in use, what the conversation
 * shown has cost, "Open a remote project…", Settings and Shortcuts.
 */
export function TopBar({
  conversationId = null,
  projectDir,
  remote = null,
  instructionsKey,
  settingsOpen,
  onOpenSettings,
  onToggleSettings,
  onShortcuts,
  onOpenRemote,
  onRemoteSaved,
}: {
  /** The conversation shown, whose tokens and cost the bar says (none while Settings are open). */
  conversationId?: string | null;
  projectDir: string | null;
  /** The remote project of the conversation shown, shown instead of the local folder. */
  remote?: RemoteProject | null;
  /** The instructions are asked for again when this changes. */
  instructionsKey: string;
  settingsOpen: boolean;
  onOpenSettings: () => void;
  onToggleSettings: () => void;
  onShortcuts: () => void;
  onOpenRemote: () => void;
  /** The conversations saved in the remote project shown, on its machine. */
  onRemoteSaved?: () => void;
}) {
  return (
    <header className="topbar">
      <span className="brand">Warden</span>
      {remote ? (
        <RemoteProjectLabel project={remote} onSaved={onRemoteSaved} />
      ) : projectDir ? (
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
      {/* The instructions of the project shown: a remote project's are read on its machine. */}
      <InstructionsIndicator refreshKey={instructionsKey} remote={remote} />
      <ConversationCostLine conversationId={conversationId} />
      <button type="button" className="link" data-testid={TID.remoteOpen} onClick={onOpenRemote}>
        Open a remote project…
      </button>
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
