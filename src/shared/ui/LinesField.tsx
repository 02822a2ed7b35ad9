import { useState, type ReactNode } from "react";

/**
 * A text field of one entry per line (paths, hosts). The raw text is kept as typed, so a newline
 * being typed is not trimmed away under the cursor; `onLines` gets the entries, trimmed, without
 * empty lines. `initial` is read once: give the field a new `key` to start it afresh.
 */
export function LinesField({
  label,
  testId,
  initial,
  placeholder,
  onLines,
}: {
  label: ReactNode;
  testId: string;
  initial: readonly string[];
  placeholder?: string;
  onLines: (lines: string[]) => void;
}) {
  const [text, setText] = useState(() => initial.join("\n"));
  return (
    <label>
      {label}
      <textarea
        rows={2}
        data-testid={testId}
        value={text}
        placeholder={placeholder}
        onChange={(e) => {
          setText(e.target.value);
          onLines(e.target.value.split("\n").map((line) => line.trim()).filter(Boolean));
        }}
      />
    </label>
  );
}
