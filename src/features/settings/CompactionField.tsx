// Settings → Limits: how full the context window gets before the older part of a conversation is
// summarized for the model (compaction). The engine takes 50 to 95; anything else typed is held to
// that range when the field is left.
import { useState } from "react";
import { TID } from "../../shared/testids";

export const COMPACT_AT_MIN = 50;
export const COMPACT_AT_MAX = 95;
/** The engine's default when the settings do not say. */
export const COMPACT_AT_DEFAULT = 85;

/** A whole percent the engine takes. */
export function clampCompactAt(n: number): number {
  if (!Number.isFinite(n)) return COMPACT_AT_DEFAULT;
  return Math.min(COMPACT_AT_MAX, Math.max(COMPACT_AT_MIN, Math.round(n)));
}

function inRange(raw: string): number | null {
  const n = Number(raw);
  return raw.trim() !== "" && Number.isInteger(n) && n >= COMPACT_AT_MIN && n <= COMPACT_AT_MAX ? n : null;
}

export function CompactionField({ value, onChange }: { value: number | undefined; onChange: (percent: number) => void }) {
  const current = clampCompactAt(value ?? COMPACT_AT_DEFAULT);
  const [text, setText] = useState(String(current));
  const [shown, setShown] = useState(current);
  if (current !== shown) {
    // Changed from outside (the settings file accepted, say): show it.
    setShown(current);
    if (inRange(text) !== current) setText(String(current));
  }
  // Leaving the field (or Enter) holds what was typed to the range and saves that.
  const settle = (raw: string) => {
    const n = raw.trim() === "" ? Number.NaN : Number(raw);
    const next = Number.isFinite(n) ? clampCompactAt(n) : current;
    setText(String(next));
    setShown(next);
    if (next !== current) onChange(next);
  };
  const outOfRange = inRange(text) === null;
  return (
    <div className="compaction-field">
      <label>
        <span>Compact the conversation when the context is</span>{" "}
        <input
          type="number"
          inputMode="numeric"
          min={COMPACT_AT_MIN}
          max={COMPACT_AT_MAX}
          step={1}
          data-testid={TID.compactAtPercent}
          aria-describedby="compaction-field-help"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            const n = inRange(e.target.value);
            if (n !== null && n !== current) {
              setShown(n);
              onChange(n);
            }
          }}
          onBlur={(e) => settle(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") settle(e.currentTarget.value);
          }}
        />{" "}
        <span>% full</span>
      </label>
      {outOfRange && (
        <p className="muted small" role="status">
          From {COMPACT_AT_MIN} to {COMPACT_AT_MAX} %.
        </p>
      )}
      <p className="muted small" id="compaction-field-help">
        The model is sent a summary of the older messages; you keep the whole history.
      </p>
    </div>
  );
}
