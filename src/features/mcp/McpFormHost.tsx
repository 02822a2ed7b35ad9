import { useState } from "react";
import { subscribeMcpForms, type JsonValue, type McpElicit } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { useMcpAnswer } from "./useMcpAnswer";
import { useListener } from "../../shared/useListener";
import { McpHostQuestion } from "./McpHostQuestion";
import { FieldInput } from "./FieldInput";
import { contentOf, defaultsOf, fieldsOf, problemsOf } from "./formModel";
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
