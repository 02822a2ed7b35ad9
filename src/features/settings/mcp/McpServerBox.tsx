import type { McpServerConfig } from "../../../shared/ipc";
import { LinesField } from "../../../shared/ui/LinesField";
import { TID } from "../../../shared/testids";

/**
 * A local server's sandbox, as the user's own entry may widen it: what its box may also read (its
 * configuration, a socket such as Docker's), or no box at all. A project's `.mcp.json` can say
 * neither (the engine ignores both there).
 */
export function McpServerBox({ config, onChange }: { config: McpServerConfig; onChange: (config: McpServerConfig) => void }) {
  const outside = config.outsideSandbox ?? false;
  return (
    <>
      {!outside && (
        <LinesField
          label="Paths its sandbox may also read (absolute files, folders or sockets, one per line)"
          testId={TID.mcpReadable}
          initial={config.readable ?? []}
          placeholder={"/home/me/.config/myserver\n/var/run/docker.sock"}
          onLines={(readable) => onChange({ ...config, readable })}
        />
      )}
      <label className="checkbox">
        <input
          type="checkbox"
          data-testid={TID.mcpOutsideSandbox}
          checked={outside}
          onChange={(e) => onChange({ ...config, outsideSandbox: e.target.checked })}
        />
        Run outside the sandbox
      </label>
      {outside && (
        <p className="field-warning" data-testid={TID.mcpOutsideSandboxWarning}>
          ⚠ This server runs as any program of yours: it can read your keys and change any file you can. Each of its
          calls is shown as not contained.
        </p>
      )}
    </>
  );
}
