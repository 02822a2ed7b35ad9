import type { Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { DEFAULT_PRICES, type Price } from "../cost/defaultPrices";
import { pricesAsOf } from "../cost/prices";
import { PriceAddForm } from "./PriceAddForm";
import { PriceAmountField } from "./PriceAmountField";
import "../cost/cost.css";

type Prices = Record<string, Price>;

/** The user's prices as the settings hold them (a negative one shown, to be put right; none missing). */
function userPrices(settings: Settings): Prices {
  const out: Prices = {};
  for (const [k, v] of Object.entries(settings.modelPrices ?? {})) {
    if (v && typeof v.input === "number" && typeof v.output === "number") out[k] = { input: v.input, output: v.output };
  }
  return out;
}

function PriceRow({
  prefix,
  price,
  fallback,
  onSet,
  onDrop,
}: {
  prefix: string;
  price: Price;
  /** The default this row's price replaces, or null for a model only the user priced. */
  fallback: Price | null;
  onSet: (price: Price) => void;
  onDrop: (() => void) | null;
}) {
  const source = onDrop ? "user" : "default";
  return (
    <tr data-testid={TID.priceRow} data-model={prefix} data-source={source}>
      <td className="prices-model">{prefix}</td>
      <td>
        <PriceAmountField value={price.input} label={`${prefix}: input`} testId={TID.priceInput} onChange={(input) => onSet({ ...price, input })} />
      </td>
      <td>
        <PriceAmountField value={price.output} label={`${prefix}: output`} testId={TID.priceOutput} onChange={(output) => onSet({ ...price, output })} />
      </td>
      <td className="muted small">
        {source === "default" ? pricesAsOf() : fallback ? `your price (default $${fallback.input} / $${fallback.output})` : "your price"}
      </td>
      <td>
        {onDrop && (
          <button type="button" className="link" data-testid={fallback ? TID.priceReset : TID.priceRemove} onClick={onDrop}>
            {fallback ? "Reset" : "Remove"}
          </button>
        )}
      </td>
    </tr>
  );
}

/**
 * Settings → Model prices: the table the cost beside each answer is made with. Warden's defaults
 * (with the day they were checked) and the user's own prices over them; a change to a default row
 * is the user's price for that model, Reset puts the default back, and a model the table does not
 * list can be added. A model in neither shows its tokens only.
 */
export function PricesSection({ settings, onChange }: { settings: Settings; onChange: (s: Settings) => void }) {
  const user = userPrices(settings);
  const save = (modelPrices: Prices) => onChange({ ...settings, modelPrices });
  const set = (prefix: string, price: Price) => save({ ...user, [prefix]: price });
  const drop = (prefix: string) => {
    const { [prefix]: _dropped, ...rest } = user;
    save(rest);
  };
  const prefixes = [...new Set([...Object.keys(DEFAULT_PRICES), ...Object.keys(user)])].sort();
  const own = Object.keys(user).length;
  return (
    <section className="settings-section" data-testid={TID.pricesSection}>
      <h3>Model prices</h3>
      <p className="muted small">
        What each answer costs is its tokens at these prices, in US dollars per million tokens, matched by the longest start of the
        model's id. Warden's own are {pricesAsOf()}: providers change them, so check yours and change any here. A model listed
        nowhere shows its tokens only.
      </p>
      <table className="prices-table">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Input $ / million</th>
            <th scope="col">Output $ / million</th>
            <th scope="col">Price from</th>
            <th scope="col" aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {prefixes.map((prefix) => {
            const mine = user[prefix];
            const fallback = DEFAULT_PRICES[prefix] ?? null;
            return (
              <PriceRow
                key={prefix}
                prefix={prefix}
                price={mine ?? fallback ?? { input: 0, output: 0 }}
                fallback={fallback}
                onSet={(price) => set(prefix, price)}
                onDrop={mine ? () => drop(prefix) : null}
              />
            );
          })}
        </tbody>
      </table>
      <PriceAddForm taken={(p) => prefixes.includes(p)} count={own} onAdd={set} />
      {own > 0 && (
        <button type="button" className="link" data-testid={TID.pricesResetAll} onClick={() => save({})}>
          Use Warden's prices only (forget your {own === 1 ? "price" : `${own} prices`})
        </button>
      )}
    </section>
  );
}
