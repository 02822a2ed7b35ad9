import { useEffect, useState } from "react";
import { api, type McpServerStatus, type Settings } from "../../../shared/ipc";
import { messageOf } from "../../../shared/format";
import { TID } from "../../../shared/testids";
import type { RemoteProject } from "../../remote/remoteStore";
import { McpServerRow } from "./McpServerRow";
import { RemoteMcpServers } from "./RemoteMcpServers";
import { ProjectMcpOffer } from "./ProjectMcpOffer";
import { localPlace } from "../../../shared/projectPlace";
import { NAME_PATTERN, type Servers, serversOf, splitCommandLine, withServers } from "./mcpModel";

/**
 * Settings → MCP servers: tools from Model Context Protocol servers. Servers are part of the
 * settings (saved as they change); their state is asked for after each save (`savedCount`).
 */
export function McpSection({
  settings,
  onChange,
  savedCount,
  remoteProjects = [],
}: {
  settings: Settings;
  onChange: (s: Settings) => void;
  savedCount: number;
  /** The remote projects linked in this window: the servers each one's session runs there. */
  remoteProjects?: RemoteProject[];
}) {
  const servers = serversOf(settings);
  const [statuses, setStatuses] = useState<McpServerStatus[] | null>(null);
  const [statusError, setStatusError] = useState<string | null>(null);
  // Asked again after a sign-in or sign-out, as after a save.
  const [asked, setAsked] = useState(0);
  const names = Object.keys(servers);

  useEffect(() => {
    let live = true;
    setStatusError(null);
    api.mcpStatus().then(
      (s) => live && setStatuses(s),
      (e: unknown) => live && setStatusError(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, [savedCount, asked, settings.projectDir]);

  const put = (next: Servers) => onChange(withServers(settings, next));

  return (
    <section className="settings-section" data-testid={TID.mcpSection}>
      <h3>MCP servers</h3>
      <p className="muted">
        Tools from Model Context Protocol servers. A server's tools are treated as dangerous unless you allow them;
        programs run in the sandbox (with the network through Warden's proxy, each new host asked about) and start when a
        conversation needs them.
      </p>
      {statusError && <p className="field-error">{statusError}</p>}
      <ProjectMcpOffer
        place={settings.projectDir ? localPlace(settings.projectDir) : null}
        statuses={statuses}
        onChosen={() => setAsked((n) => n + 1)}
      />
      {names.length === 0 ? (
        <p className="muted" data-testid={TID.mcpEmpty}>
          No servers yet.
        </p>
      ) : (
        <ul className="mcp-servers">
          {names.map((name) => (
            <McpServerRow
              key={name}
              name={name}
              config={servers[name]!}
              status={statuses?.find((s) => s.name === name)}
              onChange={(config) => put({ ...servers, [name]: config })}
              onSignedIn={() => setAsked((n) => n + 1)}
              onRemove={() => {
                const { [name]: _removed, ...rest } = servers;
                put(rest);
              }}
            />
          ))}
        </ul>
      )}
      <RemoteMcpServers projects={remoteProjects} />
      <AddServer taken={names} onAdd={(name, config) => put({ ...servers, [name]: config })} />
      <PasteJson onAdd={(pasted) => put({ ...servers, ...pasted })} />
      <KeepSecret />
    </section>
  );
}

function AddServer({ taken, onAdd }: { taken: string[]; onAdd: (name: string, config: Servers[string]) => void }) {
  const [name, setName] = useState("");
  const [target, setTarget] = useState("");
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const trimmed = name.trim();
    const where = target.trim();
    if (!NAME_PATTERN.test(trimmed)) return setError("Name: 1–32 letters, digits, _ or -.");
    if (taken.includes(trimmed)) return setError(`There is already a server named ${trimmed}.`);
    if (!where) return setError("Give the program to start (with its arguments) or the server's URL.");
    if (/^https?:\/\//i.test(where)) {
      onAdd(trimmed, { url: where });
    } else {
      const [command, ...args] = splitCommandLine(where);
      onAdd(trimmed, { command, args });
    }
    setName("");
    setTarget("");
    setError(null);
  };
  return (
    <fieldset className="mcp-add">
      <legend>Add a server</legend>
      <label>
        Name
        <input data-testid={TID.mcpAddName} value={name} placeholder="github" onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Program and arguments, or URL
        <input
          data-testid={TID.mcpAddTarget}
          value={target}
          placeholder="npx -y @modelcontextprotocol/server-filesystem ~/notes  —  or  https://example.com/mcp"
          onChange={(e) => setTarget(e.target.value)}
          onKeyDown={(e) => e.key === "Enter" && add()}
        />
      </label>
      {error && <p className="field-error">{error}</p>}
      <button type="button" data-testid={TID.mcpAdd} onClick={add}>
        Add
      </button>
    </fieldset>
  );
}

function PasteJson({ onAdd }: { onAdd: (servers: Servers) => void }) {
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const importJson = () => {
    api.mcpParse(text).then(
      (servers) => {
        onAdd(servers as Servers);
        setText("");
        setError(null);
      },
      (e: unknown) => setError(messageOf(e)),
    );
  };
  return (
    <details className="mcp-paste">
      <summary>Paste a configuration from another app</summary>
      <label>
        The <code>mcpServers</code> JSON of Claude Desktop, Cursor or codex
        <textarea
          data-testid={TID.mcpPaste}
          rows={5}
          value={text}
          placeholder={'{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."]}}}'}
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      {error && <p className="field-error">{error}</p>}
      <button type="button" data-testid={TID.mcpImport} disabled={!text.trim()} onClick={importJson}>
        Add these servers
      </button>
    </details>
  );
}

/** A token a server needs, kept in the keychain; an entry names it as `keychain:NAME`. */
function KeepSecret() {
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const keep = () => {
    api.mcpSecretSet(name.trim(), value).then(
      () => {
        setNote({ ok: true, text: `Kept. Use "keychain:${name.trim()}" as a value in a server's env or headers.` });
        setValue("");
      },
      (e: unknown) => setNote({ ok: false, text: messageOf(e) }),
    );
  };
  return (
    <details className="mcp-paste">
      <summary>Keep a token for a server in the keychain</summary>
      <p className="muted">
        Instead of writing a token into the settings, keep it here and write <code>keychain:NAME</code> as the value in
        the server's <code>env</code> or <code>headers</code>.
      </p>
      <label>
        Name
        <input data-testid={TID.mcpSecretName} value={name} placeholder="github-token" onChange={(e) => setName(e.target.value)} />
      </label>
      <label>
        Value
        <input
          type="password"
          autoComplete="off"
          data-testid={TID.mcpSecretValue}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </label>
      <button type="button" data-testid={TID.mcpSecretSave} disabled={!name.trim() || !value} onClick={keep}>
        Keep in the keychain
      </button>
      {note && (
        <p data-testid={TID.mcpSecretSaved} className={note.ok ? "muted" : "field-error"} role="status">
          {note.text}
        </p>
      )}
    </details>
  );
}
