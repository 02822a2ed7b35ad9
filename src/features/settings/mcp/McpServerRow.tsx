import type { McpServerConfig, McpServerStatus } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { dotOf, oauthClientText, reachedBy, statusText } from "./mcpModel";
import { McpServerBox } from "./McpServerBox";
import { McpSignIn } from "./McpSignIn";
import { McpToolChoices } from "./McpToolChoices";

type McpServerRowProps = {
  name: string;
  config: McpServerConfig;
  status: McpServerStatus | undefined;
  onChange: (config: McpServerConfig) => void;
  onRemove: () => void;
  /** After a sign-in or sign-out: the section asks for the states again. */
  onSignedIn: () => void;
};

/** One configured server: how it is reached, its state, its tools and what each may do. */
export function McpServerRow({
  name,
  config,
  status,
  onChange,
  onRemove,
  onSignedIn,
}: McpServerRowProps) {
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
      <McpSignIn name={name} config={config} dot={dot} onSignedIn={onSignedIn} />
      {dot === "failed" && status && status.stderrTail.length > 0 && (
        <details>
          <summary>What the server printed</summary>
          <pre className="mcp-stderr">{status.stderrTail.join("\n")}</pre>
        </details>
      )}
      {status && <NamedList title="Resources" items={status.resources} testId={TID.mcpResources} />}
      {status && <NamedList title="Prompts" items={status.prompts} testId={TID.mcpPrompts} />}
      <McpToolChoices tools={tools} config={config} onChange={onChange} />
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
