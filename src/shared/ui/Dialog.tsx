// A small dialog over the window (the shortcuts list, About Warden): labelled, Esc or Close hides
// it, and the Close button has the focus when it opens (unless a field of it takes it: a form).
import { useEffect, useRef, type ReactNode } from "react";

export function Dialog({
  label,
  testId,
  className = "",
  onClose,
  actions,
  focusClose = true,
  children,
}: {
  label: string;
  testId: string;
  className?: string;
  onClose: () => void;
  /** Buttons shown before Close. */
  actions?: ReactNode;
  /** False when a field of its own has the focus on opening (`autoFocus`). */
  focusClose?: boolean;
  children: ReactNode;
}) {
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusClose) closeButton.current?.focus();
  }, [focusClose]);
  return (
    <div
      className={`small-dialog ${className}`.trim()}
      role="dialog"
      aria-modal="true"
      aria-label={label}
      data-testid={testId}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          onClose();
        }
      }}
    >
      {children}
      <div className="small-dialog-actions">
        {actions}
        <button ref={closeButton} type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
