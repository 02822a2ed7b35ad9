import type { Settings, ToolInfo, ToolPermissions } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { setProjectPermissions } from "./settingsModel";
import "./allowedTools.css";

/**
 * The tools Warden may use in the project (`perms`): a checkbox for each tool of the engine's
 * `catalog` (null while it loads).
 */
export function AllowedTools({
  settings,
  perms,
  catalog,
  onChange,
}: {
  settings: Settings;
  perms: ToolPermissions;
  catalog: ToolInfo[] | null;
  onChange: (s: Settings) => void;
}) {
  const allowed = perms.allowedTools ?? (catalog ?? []).filter((t) => t.inDefaultScope).map((t) => t.name);

  const toggle = (tool: string, on: boolean) => {
    const next = on ? [...allowed, tool] : allowed.filter((t) => t !== tool);
    const names = (catalog ?? []).map((t) => t.name);
    onChange(setProjectPermissions(settings, { allowedTools: names.filter((t) => next.includes(t)) }));
  };

  return (
    <fieldset className="tools-allowed">
      <legend>Tools Warden may use in this project</legend>
      {catalog === null && <p className="muted">Loading the tools…</p>}
      {(catalog ?? []).map((tool) => (
        <label key={tool.name} className="checkbox allowed-tool" title={tool.name}>
          <input
            type="checkbox"
            data-testid={TID.allowedTool}
            data-tool={tool.name}
            checked={allowed.includes(tool.name)}
            onChange={(e) => toggle(tool.name, e.target.checked)}
          />
          <span className="allowed-tool-text">
            {tool.label} <code className="muted small">{tool.name}</code>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
