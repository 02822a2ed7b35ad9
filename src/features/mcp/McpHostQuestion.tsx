import type { McpElicit } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { useMcpAnswer } from "./useMcpAnswer";

/**
 * A local MCP server's box wants a host no rule names: at its start, between calls or during one.
 * The server's name, the host and where it leads, and Allow (while the server runs) / Always for
 * this project (saved as a rule, Settings → Sandbox lists it) / Deny. Escape dismisses it: the
 * connection is refused, and the server asks again the next time.
 */
export function McpHostQuestion({ question, onDone }: { question: McpElicit; onDone: () => void }) {
  const target = question.network ? `${question.network.host}:${question.network.port}` : "a host";
  const { answer, error } = useMcpAnswer(question.requestId, onDone);
  return (
    <div className="mcp-form-backdrop">
      <div
        className="mcp-form"
        role="dialog"
        aria-modal="true"
        aria-label={`The MCP server ${question.server} wants to reach ${target}`}
        data-testid={TID.mcpHostQuestion}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            void answer({ action: "cancel" });
          }
        }}
      >
        <h2>
          The MCP server <strong>{question.server}</strong> wants to reach <code>{target}</code>
        </h2>
        {question.network?.reach && <p className="field-warning">It leads to {question.network.reach}.</p>}
        <p className="mcp-form-message">
          Its sandbox reaches only the hosts your rules allow. &quot;Always&quot; adds this one to the project&apos;s hosts in
          Settings → Sandbox, for its commands too.
        </p>
        {error && <p className="field-error">{error}</p>}
        <div className="mcp-form-actions">
          <button type="button" className="primary" autoFocus data-testid={TID.mcpHostOnce} onClick={() => void answer({ action: "accept", content: {} })}>
            Allow while it runs
          </button>
          <button type="button" data-testid={TID.mcpHostAlways} onClick={() => void answer({ action: "accept", content: { always: true } })}>
            Always for this project
          </button>
          <button type="button" data-testid={TID.mcpHostDeny} onClick={() => void answer({ action: "decline" })}>
            Deny
          </button>
        </div>
      </div>
    </div>
  );
}
