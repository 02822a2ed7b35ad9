// The list of keyboard shortcuts (Ctrl/Cmd+/ or the top bar's "Shortcuts"); Esc or Close hides it.
import { useEffect, useRef } from "react";
import { SHORTCUTS } from "../shared/keyboard";
import { TID } from "../shared/testids";

export function ShortcutsHelp({ onClose }: { onClose: () => void }) {
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => closeButton.current?.focus(), []);
  return (
    <div
      className="shortcuts-help"
      role="dialog"
      aria-modal="true"
      aria-label="Keyboard shortcuts"
      data-testid={TID.shortcutsHelp}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          onClose();
        }
      }}
    >
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
      <button ref={closeButton} type="button" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
