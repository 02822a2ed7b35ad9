// The list of keyboard shortcuts (Ctrl/Cmd+/ or the top bar's "Shortcuts"); Esc or Close hides it.
import { SHORTCUTS } from "../shared/keyboard";
import { TID } from "../shared/testids";
import { Dialog } from "../shared/ui/Dialog";

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  return (
    <Dialog label="Keyboard shortcuts" testId={TID.shortcutsHelp} className="shortcuts-help" onClose={onClose}>
      <h2>Keyboard shortcuts</h2>
      <dl>
        {SHORTCUTS.map((s) => (
          <div key={s.keys} className="shortcut">
            <dt>
              <kbd>{s.keys}</kbd>
            </dt>
            <dd>{s.what}</dd>
          </div>
        ))}
      </dl>
      <p className="muted small">On macOS, Cmd instead of Ctrl.</p>
    </Dialog>
  );
}
