import { useState } from "react";
import { subscribeMcpForms, type JsonValue, type McpElicit } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { useMcpAnswer } from "./useMcpAnswer";
import { useListener } from "../../shared/useListener";
import { McpHostQuestion } from "./McpHostQuestion";
import { contentOf, defaultsOf, fieldsOf, problemsOf, type Field } from "./formModel";
import "./mcpForm.css";

/**
 * Forms MCP servers ask the user to fill in, one at a time, over the window: what the server says
 * it needs, its fields, and Send / Decline / Cancel. A server's request for the user's model
 * (sampling) comes the same way: the request in full, and Allow / Decline; so does a question about
 * a host its box wants to reach ({@link McpHostQuestion}). Nothing is sent until the user answers.
 */
export function McpFormHost() {
  const [queue, setQueue] = useState<McpElicit[]>([]);
  useListener(() => subscribeMcpForms((form) => setQueue((q) => [...q, form])), "MCP forms");
  const form = queue[0];
  if (!form) return null;
  const onDone = () => setQueue((q) => q.slice(1));
  if (form.purpose === "network") return <McpHostQuestion key={form.requestId} question={form} onDone={onDone} />;
  return <McpForm key={form.requestId} form={form} onDone={onDone} />;
}

function McpForm({ form, onDone }: { form: McpElicit; onDone: () => void }) {
  const fields = fieldsOf(form.schema);
  const sampling = form.purpose === "sampling";
  const [values, setValues] = useState<Record<string, JsonValue>>(() => defaultsOf(form.schema));
  const [tried, setTried] = useState(false);
  const problems = problemsOf(fields, values);
  const { answer, error } = useMcpAnswer(form.requestId, onDone);
  const submit = () => {
    setTried(true);
    if (Object.keys(problems).length === 0) void answer({ action: "accept", content: contentOf(fields, values) });
  };
  return (
    <div className="mcp-form-backdrop">
      <form
        className="mcp-form"
        role="dialog"
        aria-modal="true"
        aria-label={sampling ? `The MCP server ${form.server} asks to use your model` : `The MCP server ${form.server} asks`}
        data-testid={TID.mcpForm}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            void answer({ action: "cancel" });
          }
        }}
      >
        <h2>
          The MCP server <strong>{form.server}</strong> {sampling ? "asks to use your model" : "asks"}
        </h2>
        <p className={sampling ? "mcp-form-message mcp-form-request" : "mcp-form-message"}>{form.message}</p>
        {fields.map((f, i) => (
          <FieldInput
            key={f.name}
            field={f}
            value={values[f.name]}
            problem={tried ? problems[f.name] : undefined}
            autoFocus={i === 0}
            onChange={(v) => setValues((old) => ({ ...old, [f.name]: v }))}
          />
        ))}
        {error && <p className="field-error">{error}</p>}
        <div className="mcp-form-actions">
          <button type="submit" className="primary" data-testid={TID.mcpFormSubmit}>
            {sampling ? "Allow" : "Send"}
          </button>
          <button type="button" data-testid={TID.mcpFormDecline} onClick={() => void answer({ action: "decline" })}>
            Decline
          </button>
          <button type="button" className="link" data-testid={TID.mcpFormCancel} onClick={() => void answer({ action: "cancel" })}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  );
}

function FieldInput({
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
    case "choices": {
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
