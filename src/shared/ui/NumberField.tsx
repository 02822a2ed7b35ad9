import { useState } from "react";

/**
 * A whole-number input that lets the user clear it and type: the raw text is kept while editing,
 * a value is reported only when it parses and is in range, and blur puts back the last good value.
 */
export function NumberField({
  value,
  min,
  max,
  onChange,
  testId,
  label,
  disabled = false,
}: {
  value: number;
  min: number;
  max: number;
  onChange: (n: number) => void;
  testId?: string;
  label?: string;
  disabled?: boolean;
}) {
  const [text, setText] = useState(String(value));
  const [lastValue, setLastValue] = useState(value);
  if (value !== lastValue) {
    // The value changed from outside (not by typing here): show it.
    setLastValue(value);
    if (Number(text) !== value) setText(String(value));
  }
  return (
    <input
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      aria-label={label}
      data-testid={testId}
      disabled={disabled}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const n = Number(e.target.value);
        if (e.target.value !== "" && Number.isInteger(n) && n >= min && n <= max) {
          setLastValue(n);
          onChange(n);
        }
      }}
      onBlur={() => setText(String(value))}
    />
  );
}
