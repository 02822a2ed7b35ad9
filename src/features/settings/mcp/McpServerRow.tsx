import { useState } from "react";
import { api, type McpServerConfig, type McpServerStatus, type McpToolChoice } from "../../../shared/ipc";
import { messageOf } from "../../../shared/format";
import { TID } from "../../../shared/testids";
import { dotOf, oauthClientText, reachedBy, statusText, withChoice } from "./mcpModel";
import { McpServerBox } from "./McpServerBox";

const CHOICES: { value: McpToolChoice | ""; label: string }[] = [
  { value: "", label: "Trust level decides" },
  { value: "allow", label: "Allow" },
  { value: "ask", label: "Always ask" },
  { value: "deny", label: "Deny" },
];

/** One configured server: how it is reached, its state, its tools and what each may do. */
export function McpServerRow({
  name,
  config,
  status,
  onChange,
  onRemove,
  onSignedIn,
}: {
  name: string;
  config: McpServerConfig;
  status: McpServerStatus | undefined;
  onChange: (config: McpServerConfig) => void;
  onRemove: () => void;
  /** After a sign-in or sign-out: the section asks for the states again. */
  onSignedIn: () => void;
}) {
  const [signing, setSigning] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const account = (call: () => Promise<null>) => {
    setSigning({ busy: true, error: null });
    call().then(
      () => {
        setSigning({ busy: false, error: null });
        onSignedIn();
      },
      (e: unknown) => setSigning({ busy: false, error: messageOf(e) }),
    );
  };
  const disabled = config.disabled ?? false;
  const dot = dotOf(status, disabled);
  const tools = status?.state === "connected" ? status.tools : [];
  return (
    <li className="mcp-server" data-testid={TID.mcpServer} data-server={name}>
      <div className="mcp-server-head">
        <span className={`mcp-dot mcp-dot-${dot}`} aria-hidden="true" />
        <strong>{name}</strong>
        <span className="muted mcp-transport">{config.url ? "HTTP" : "program"}</span>
        <label className="checkbox mcp-enabled">
          <input
            type="checkbox"
            data-testid={TID.mcpEnabled}
            checked={!disabled}
            onChange={(e) => onChange({ ...config, disabled: !e.target.checked })}
          />
          On
        </label>
        <button type="button" className="link" data-testid={TID.mcpRemove} onClick={onRemove}>
          Remove
        </button>
      </div>
      <code className="mcp-reached">{reachedBy(config)}</code>
      {oauthClientText(config) && (
        <p className="muted small" data-testid={TID.mcpOAuthClient}>
          {oauthClientText(config)}
        </p>
      )}
      {!config.url && (
        <label className="checkbox">
          <input
            type="checkbox"
            data-testid={TID.mcpNetwork}
            checked={config.network !== "off"}
            onChange={(e) => onChange({ ...config, network: e.target.checked ? "rules" : "off" })}
          />
          May use the network (from inside the sandbox, through Warden&apos;s proxy: a host your rules do not list is
          asked about, naming this server)
        </label>
      )}
      {!config.url && <McpServerBox config={config} onChange={onChange} />}
      <label className="checkbox">
        <input
          type="checkbox"
          data-testid={TID.mcpSampling}
          checked={config.sampling ?? false}
          onChange={(e) => onChange({ ...config, sampling: e.target.checked })}
        />
        May ask your model for answers (sampling) — you see each request and allow or decline it
      </label>
      <p data-testid={TID.mcpStatus} className={dot === "failed" ? "field-error" : "muted"} role="status">
        {statusText(status, disabled)}
      </p>
      {dot === "sign-in" && (
        <p>
          <button type="button" data-testid={TID.mcpSignIn} disabled={signing.busy} onClick={() => account(() => api.mcpSignIn(name))}>
            {signing.busy ? "Waiting for the browser…" : "Sign in"}
          </button>{" "}
          <span className="muted">
            {config.oauth?.grant === "client_credentials"
              ? "Warden signs in with the client's own secret or key."
              : "The server's sign-in page opens in your browser."}
          </span>
        </p>
      )}
      {dot === "ok" && config.url && (
        <button type="button" className="link" data-testid={TID.mcpSignOut} disabled={signing.busy} onClick={() => account(() => api.mcpSignOut(name))}>
          Sign out
        </button>
      )}
      {signing.error && <p className="field-error">{signing.error}</p>}
      {dot === "failed" && status && status.stderrTail.length > 0 && (
        <details>
          <summary>What the server printed</summary>
          <pre className="mcp-stderr">{status.stderrTail.join("\n")}</pre>
        </details>
      )}
      {status && <NamedList title="Resources" items={status.resources} testId={TID.mcpResources} />}
      {status && <NamedList title="Prompts" items={status.prompts} testId={TID.mcpPrompts} />}
      {tools.length > 0 && (
        <details>
          <summary>Tools ({tools.length})</summary>
          <ul className="mcp-tools">
            {tools.map((tool) => (
              <li key={tool.name}>
                <label>
                  <span>
                    <code>{tool.name}</code> <span className="muted">{tool.description}</span>
                  </span>
                  <select
                    data-testid={TID.mcpToolChoice}
                    data-tool={tool.name}
                    value={config.tools?.[tool.name] ?? ""}
                    onChange={(e) => onChange(withChoice(config, tool.name, (e.target.value || null) as McpToolChoice | null))}
                  >
                    {CHOICES.map((c) => (
                      <option key={c.value} value={c.value}>
                        {c.label}
                      </option>
                    ))}
                  </select>
                </label>
              </li>
            ))}
          </ul>
        </details>
      )}
    </li>
  );
}

/** A folded list of what a server offers (its resources, its prompts); nothing when empty. */
function NamedList({ title, items, testId }: { title: string; items: string[]; testId: string }) {
  if (items.length === 0) return null;
  return (
    <details>
      <summary>
        {title} ({items.length})
      </summary>
      <ul className="path-list" data-testid={testId}>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </details>
  );
}
