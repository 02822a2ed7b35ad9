import { TID } from "../../../shared/testids";
import { sizeOf, type PastedText } from "./pastedTexts";

/** The long texts pasted as chips, each with its size, first line and a remove button. */
export function PastedTexts({ pasted, onRemove }: { pasted: readonly PastedText[]; onRemove: (id: string) => void }) {
  if (pasted.length === 0) return null;
  return (
    <ul className="composer-resources" aria-label="Pasted texts" data-testid={TID.composerPasted}>
      {pasted.map((p, i) => {
        const first = p.text.split("\n", 1)[0]?.slice(0, 80) ?? "";
        return (
          <li key={p.id} className="composer-resource" data-testid={TID.composerPastedItem}>
            <span title={first}>Pasted text {pasted.length > 1 ? i + 1 : ""}</span>
            <span className="muted small">{sizeOf(p.text)}</span>
            <button
              type="button"
              className="composer-image-remove"
              aria-label={`Remove pasted text ${pasted.length > 1 ? i + 1 : ""} (${sizeOf(p.text)})`.replace("  ", " ")}
              title="Remove"
              onClick={() => onRemove(p.id)}
            >
              ×
            </button>
          </li>
        );
      })}
    </ul>
  );
}
