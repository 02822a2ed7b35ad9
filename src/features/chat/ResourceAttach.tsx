import { useEffect, useRef, useState } from "react";
import { messageOf } from "../../shared/format";
import { api, type McpResourceText } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { offeredResources, type OfferedResource } from "./resources";

/** The composer's "Attach a resource": the connected MCP servers' resources, one of which is read and attached. */
export function ResourceAttach({
  disabled,
  onAttach,
}: {
  disabled: boolean;
  onAttach: (resource: McpResourceText) => void;
}) {
  const [open, setOpen] = useState(false);
  const [offered, setOffered] = useState<OfferedResource[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [reading, setReading] = useState<string | null>(null);
  const picker = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  // A press anywhere else closes the list, as menus do.
  useEffect(() => {
    if (!open) return;
    const away = (e: MouseEvent) => {
      if (!picker.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", away);
    return () => document.removeEventListener("mousedown", away);
  }, [open]);

  const show = async () => {
    setOpen(true);
    setOffered(null);
    setProblem(null);
    try {
      setOffered(offeredResources(await api.mcpStatus()));
    } catch (error) {
      setOffered([]);
      setProblem(`Could not list the MCP servers: ${messageOf(error)}`);
    }
  };

  const choose = async (item: OfferedResource) => {
    setReading(item.uri);
    setProblem(null);
    try {
      onAttach(await api.mcpReadResource(item.server, item.uri));
      setOpen(false);
    } catch (error) {
      setProblem(`Could not read ${item.uri}: ${messageOf(error)}`);
    } finally {
      setReading(null);
    }
  };

  return (
    <div className="composer-resource-picker" ref={picker}>
      <button
        ref={button}
        type="button"
        className="composer-attach"
        data-testid={TID.composerResourceAttach}
        aria-label="Attach a resource from an MCP server"
        aria-expanded={open}
        title="Attach a resource from an MCP server (its text goes with your message)"
        disabled={disabled}
        onClick={() => (open ? setOpen(false) : void show())}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          <path
            d="M4 6.5C4 5.1 7.6 4 12 4s8 1.1 8 2.5S16.4 9 12 9 4 7.9 4 6.5zM4 6.5v11C4 18.9 7.6 20 12 20s8-1.1 8-2.5v-11M4 12c0 1.4 3.6 2.5 8 2.5s8-1.1 8-2.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinecap="round"
          />
        </svg>
      </button>
      {open && (
        <div
          className="composer-resource-menu"
          data-testid={TID.composerResourceMenu}
          role="dialog"
          aria-label="Resources of the MCP servers"
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              e.stopPropagation();
              setOpen(false);
              button.current?.focus();
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
                    onClick={() => void choose(item)}
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
      )}
    </div>
  );
}
