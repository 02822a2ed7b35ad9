import { useState } from "react";
import { amountProblem, parseAmount } from "../cost/priceRules";

/**
 * One price (dollars per million tokens) in Settings → Model prices: the text typed is kept while
 * editing and a value is reported only when it is a price; what is not says why beside it.
 */
export function PriceAmountField({
  value,
  label,
  testId,
  onChange,
}: {
  value: number;
  label: string;
  testId: string;
  onChange: (amount: number) => void;
}) {
  const [text, setText] = useState(String(value));
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    // Changed from outside (a reset, the settings file accepted): show it.
    setShown(value);
    if (parseAmount(text) !== value) setText(String(value));
  }
  const problem = amountProblem(text);
  return (
    <>
      <input
        type="text"
        inputMode="decimal"
        aria-label={label}
        aria-invalid={problem !== null}
        data-testid={testId}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const n = parseAmount(e.target.value);
          if (n !== null && n !== value) {
            setShown(n);
            onChange(n);
          }
        }}
      />
      {problem && (
        <span className="field-error small" role="alert">
          {problem}
        </span>
      )}
    </>
  );
}
