import { useState } from "react";
import { TID } from "../../shared/testids";
import type { Price } from "../cost/defaultPrices";
import { amountProblem, normalPrefix, parseAmount, prefixProblem } from "../cost/priceRules";

/** Settings → Model prices: a price for a model the table does not list (or lists by a shorter prefix). */
export function PriceAddForm({
  taken,
  count,
  onAdd,
}: {
  /** Whether the table lists this prefix already. */
  taken: (prefix: string) => boolean;
  /** How many prices of the user's there are. */
  count: number;
  onAdd: (prefix: string, price: Price) => void;
}) {
  const [model, setModel] = useState("");
  const [input, setInput] = useState("");
  const [output, setOutput] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const why =
      prefixProblem(model, taken, count) ??
      (amountProblem(input) && `Input: ${amountProblem(input)}`) ??
      (amountProblem(output) && `Output: ${amountProblem(output)}`);
    const inputPrice = parseAmount(input);
    const outputPrice = parseAmount(output);
    if (why || inputPrice === null || outputPrice === null) {
      setProblem(why || "Give both prices.");
      return;
    }
    onAdd(normalPrefix(model), { input: inputPrice, output: outputPrice });
    setModel("");
    setInput("");
    setOutput("");
    setProblem(null);
  };
  return (
    <form
      className="prices-add"
      onSubmit={(e) => {
        e.preventDefault();
        add();
      }}
    >
      <label>
        Model (id or its start)
        <input type="text" spellCheck={false} data-testid={TID.priceAddModel} value={model} onChange={(e) => setModel(e.target.value)} />
      </label>
      <label>
        Input $ / million
        <input type="text" inputMode="decimal" data-testid={TID.priceAddInput} value={input} onChange={(e) => setInput(e.target.value)} />
      </label>
      <label>
        Output $ / million
        <input type="text" inputMode="decimal" data-testid={TID.priceAddOutput} value={output} onChange={(e) => setOutput(e.target.value)} />
      </label>
      <button type="submit" data-testid={TID.priceAdd}>
        Add price
      </button>
      {problem && (
        <p className="field-error" role="alert" data-testid={TID.priceAddError}>
          {problem}
        </p>
      )}
    </form>
  );
}
