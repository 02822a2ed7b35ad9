import { useRef, useState } from "react";
import { messageOf } from "../../../shared/format";
import { api, type McpResourceText } from "../../../shared/ipc";
import type { ProjectPlace } from "../../../shared/projectPlace";
import { TID } from "../../../shared/testids";
import { ResourceMenu } from "./ResourceMenu";
import { offeredResources, type OfferedResource } from "./resources";
import { usePressAway } from "./usePressAway";

/**
 * The composer's "Attach a resource": the connected MCP servers' resources, one of which is read and
 * attached — this machine's servers, or over a remote project's conversation (`place`) those its
 * session runs there.
 */
export function ResourceAttach({
  disabled,
  onAttach,
  place,
}: {
  disabled: boolean;
  onAttach: (resource: McpResourceText) => void;
  place?: ProjectPlace | null;
}) {
  const [open, setOpen] = useState(false);
  const [offered, setOffered] = useState<OfferedResource[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [reading, setReading] = useState<string | null>(null);
  const picker = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  usePressAway(picker, open, () => setOpen(false));

  const show = async () => {
    setOpen(true);
    setOffered(null);
    setProblem(null);
    if (place === null) {
      setOffered([]);
      setProblem("This remote project is not linked: link it to attach its servers' resources.");
      return;
    }
    try {
      setOffered(offeredResources(await (place ? place.mcpServers() : api.mcpStatus())));
    } catch (error) {
      setOffered([]);
      setProblem(`Could not list the MCP servers: ${messageOf(error)}`);
    }
  };

  const choose = async (item: OfferedResource) => {
    setReading(item.uri);
    setProblem(null);
    try {
      onAttach(await (place ? place.readResource(item.server, item.uri) : api.mcpReadResource(item.server, item.uri)));
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
        <ResourceIcon />
      </button>
      {open && (
        <ResourceMenu
          offered={offered}
          problem={problem}
          reading={reading}
          onChoose={(item) => void choose(item)}
          onEscape={() => {
            setOpen(false);
            button.current?.focus();
          }}
        />
      )}
    </div>
  );
}

/** A stack of disks: a server's store. */
function ResourceIcon() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        d="M4 6.5C4 5.1 7.6 4 12 4s8 1.1 8 2.5S16.4 9 12 9 4 7.9 4 6.5zM4 6.5v11C4 18.9 7.6 20 12 20s8-1.1 8-2.5v-11M4 12c0 1.4 3.6 2.5 8 2.5s8-1.1 8-2.5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </svg>
  );
}
