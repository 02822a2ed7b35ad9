import type { McpToolInfo } from "../../../shared/ipc";
import type { McpServerConfig, McpToolChoice } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { withChoice } from "./mcpModel";

const CHOICES: { value: McpToolChoice | ""; label: string }[] = [
  { value: "", label: "Trust level decides" },
  { value: "allow", label: "Allow" },
  { value: "ask", label: "Always ask" },
  { value: "deny", label: "Deny" },
];

/** A connected server's tools, folded, each with what it may do (the trust level decides unless chosen here). */
export function McpToolChoices({
  tools,
  config,
  onChange,
}: {
  tools: McpToolInfo[];
  config: McpServerConfig;
  onChange: (config: McpServerConfig) => void;
}) {
  if (tools.length === 0) return null;
  return (
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
  );
}
