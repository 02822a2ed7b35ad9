import { TID } from "../../../shared/testids";
import type { OfferedResource } from "./resources";

/**
 * The list "Attach a resource" opens: the resources offered (null while they are asked for), the one
 * being read, and what went wrong.
 */
export function ResourceMenu({
  offered,
  problem,
  reading,
  onChoose,
  onEscape,
}: {
  offered: OfferedResource[] | null;
  problem: string | null;
  /** The URI of the resource being read. */
  reading: string | null;
  onChoose: (item: OfferedResource) => void;
  onEscape: () => void;
}) {
  return (
    <div
      className="composer-resource-menu"
      data-testid={TID.composerResourceMenu}
      role="dialog"
      aria-label="Resources of the MCP servers"
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.stopPropagation();
          onEscape();
        }
      }}
    >
      {offered === null && <p className="muted small">Asking the MCP servers…</p>}
      {offered?.length === 0 && !problem && (
        <p className="muted small">No connected MCP server offers resources. Servers are added in Settings → MCP servers.</p>
      )}
      {offered && offered.length > 0 && (
        <ul>
          {offered.map((item) => (
            <li key={`${item.server} ${item.uri}`}>
              <button
                type="button"
                data-testid={TID.composerResourceItem}
                data-server={item.server}
                data-uri={item.uri}
                disabled={reading !== null}
                onClick={() => onChoose(item)}
              >
                <span>{item.name}</span>
                <span className="muted small">
                  {item.server} · {item.uri}
                  {reading === item.uri ? " · reading…" : ""}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <p className="field-error small" role="alert" data-testid={TID.composerResourceError}>
          {problem}
        </p>
      )}
    </div>
  );
}
