import type { ReactNode } from "react";
import type { JsonValue } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import type { Field } from "./formModel";

/** One field of an MCP server's form, as its kind asks: a checkbox, a list, checkboxes, a number or a text. */
export function FieldInput({
  field,
  value,
  problem,
  autoFocus,
  onChange,
}: {
  field: Field;
  value: JsonValue | undefined;
  problem: string | undefined;
  autoFocus: boolean;
  onChange: (v: JsonValue) => void;
}) {
  const label = (
    <span>
      {field.label}
      {field.required && <span aria-label="needed"> *</span>}
      {field.help && <span className="muted small"> — {field.help}</span>}
    </span>
  );
  const note = problem && <span className="field-error">{problem}</span>;
  const testId = { "data-testid": TID.mcpFormField, "data-field": field.name };
  switch (field.kind) {
    case "boolean":
      return (
        <label className="checkbox">
          <input type="checkbox" {...testId} autoFocus={autoFocus} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          {label}
          {note}
        </label>
      );
    case "choice":
      return (
        <label>
          {label}
          <select {...testId} autoFocus={autoFocus} value={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value)}>
            {!field.required && <option value="">—</option>}
            {field.choices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
          {note}
        </label>
      );
    case "choices":
      return <ChoicesInput field={field} value={value} label={label} note={note} testId={testId} onChange={onChange} />;
    case "number":
      return (
        <label>
          {label}
          <input
            type="number"
            {...testId}
            autoFocus={autoFocus}
            step={field.integer ? 1 : "any"}
            value={typeof value === "number" ? value : ""}
            onChange={(e) => onChange(e.target.value === "" ? "" : Number(e.target.value))}
          />
          {note}
        </label>
      );
    case "text": {
      const type = field.format === "email" ? "email" : field.format === "uri" ? "url" : field.format === "date" ? "date" : "text";
      return (
        <label>
          {label}
          <input type={type} {...testId} autoFocus={autoFocus} value={typeof value === "string" ? value : ""} onChange={(e) => onChange(e.target.value)} />
          {note}
        </label>
      );
    }
  }
}

/** A field of several choices: a checkbox each, in a fieldset named by the field's label. */
function ChoicesInput({
  field,
  value,
  label,
  note,
  testId,
  onChange,
}: {
  field: Extract<Field, { kind: "choices" }>;
  value: JsonValue | undefined;
  label: ReactNode;
  note: ReactNode;
  testId: { "data-testid": string; "data-field": string };
  onChange: (v: JsonValue) => void;
}) {
  const chosen = Array.isArray(value) ? value.map(String) : [];
  return (
    <fieldset {...testId}>
      <legend>{label}</legend>
      {field.choices.map((c) => (
        <label key={c.value} className="checkbox">
          <input
            type="checkbox"
            checked={chosen.includes(c.value)}
            onChange={(e) => onChange(e.target.checked ? [...chosen, c.value] : chosen.filter((v) => v !== c.value))}
          />
          {c.label}
        </label>
      ))}
      {note}
    </fieldset>
  );
}
