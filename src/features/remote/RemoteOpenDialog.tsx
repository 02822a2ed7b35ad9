// The top bar's "Open a remote project…": `host:/path` (checked in words before anything
// connects), an optional transport command instead of ssh, and Connect. Connecting can take
// seconds (ssh): the dialog says to where meanwhile, and Close stays usable — it stops waiting
// here; a session that still opens is listed, not shown. Why a connection failed is said in it.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { api, CommandError } from "../../shared/ipc";
import { messageOf } from "../../shared/format";
import { TID } from "../../shared/testids";
import { Dialog } from "../../shared/ui/Dialog";
import { CopyEngineOffer } from "./CopyEngineOffer";
import { checkTarget } from "./remoteTarget";
import type { RemoteProject } from "./remoteStore";

export type RemoteOpenValues = { target: string; transport: string | null; remoteEnvKeys?: boolean };

type Props = {
  /** Filled in (opening a lost project again). */
  initial?: RemoteOpenValues;
  /** A session opened; `show`: the dialog was still open (else it is only listed). */
  onOpened: (project: RemoteProject, show: boolean) => void;
  onClose: () => void;
};

/** Connect: checks the target, asks the engine, names the host while it connects, says what failed. */
function useConnect(onOpened: Props["onOpened"]) {
  const [connecting, setConnecting] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // No Warden (of this version) there, over ssh: the copy can be offered for this target.
  const [noEngine, setNoEngine] = useState<{ target: string; host: string } | null>(null);
  // Closed while connecting: a late answer is not shown. (Set on mount too: StrictMode mounts twice.)
  const shown = useRef(true);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);
  const connect = async ({ target: typed, transport: typedTransport, remoteEnvKeys = false }: RemoteOpenValues) => {
    const checked = checkTarget(typed);
    if (!checked.ok) return setProblem(checked.problem);
    const transport = typedTransport?.trim() || null;
    setProblem(null);
    setNoEngine(null);
    setConnecting(checked.host);
    try {
      const opened = await api.remoteOpen(checked.target, transport, null, remoteEnvKeys);
      onOpened({ ...opened, transport }, shown.current);
    } catch (e) {
      if (shown.current) setProblem(messageOf(e));
      const missing = e instanceof CommandError && e.code === "NO_REMOTE_ENGINE";
      if (shown.current && missing) setNoEngine({ target: checked.target, host: checked.host });
    }
    if (shown.current) setConnecting(null);
  };
  return { connecting, problem, noEngine, connect };
}

export function RemoteOpenDialog({ initial, onOpened, onClose }: Props) {
  const [target, setTarget] = useState(initial?.target ?? "");
  const [transport, setTransport] = useState(initial?.transport ?? "");
  const [remoteEnvKeys, setRemoteEnvKeys] = useState(initial?.remoteEnvKeys ?? false);
  const { connecting, problem, noEngine, connect } = useConnect(onOpened);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (connecting === null) void connect({ target, transport, remoteEnvKeys });
  };
  return (
    <Dialog label="Open a remote project" testId={TID.remoteDialog} className="remote-open" onClose={onClose} focusClose={false}>
      <h2>Open a remote project</h2>
      <form className="remote-open-form" onSubmit={submit}>
        <label>
          Project on another machine (host:/path)
          <input
            data-testid={TID.remoteTarget}
            value={target}
            placeholder="me@build-box:/home/me/app"
            spellCheck={false}
            autoFocus
            onChange={(e) => setTarget(e.target.value)}
          />
        </label>
        <label>
          Custom transport (optional)
          <input
            data-testid={TID.remoteTransport}
            value={transport}
            placeholder="docker exec -i my-container warden serve --stdio"
            spellCheck={false}
            aria-describedby="remote-transport-hint"
            onChange={(e) => setTransport(e.target.value)}
          />
        </label>
        <p id="remote-transport-hint" className="muted small">
          Empty: ssh to the host, with your ~/.ssh/config and keys. Otherwise a command giving a pipe to{" "}
          <code>warden serve --stdio</code> there, such as <code>docker exec -i my-container warden serve --stdio</code> or{" "}
          <code>kubectl exec -i my-pod -- warden serve --stdio</code>; the host is then only a label.
        </p>
        <label className="checkbox">
          <input
            type="checkbox"
            data-testid={TID.remoteEnvKeys}
            checked={remoteEnvKeys}
            aria-describedby="remote-env-keys-hint"
            onChange={(e) => setRemoteEnvKeys(e.target.checked)}
          />
          Use that machine's own API keys
        </label>
        <p id="remote-env-keys-hint" className="muted small">
          Off: your keys from this machine are sent for the session and held in memory there. On: none is sent, and the
          engine there reads the provider's variable (<code>ANTHROPIC_API_KEY</code>, …) from the environment its{" "}
          <code>warden serve</code> starts with — a shared build box with its own account.
        </p>
        {connecting !== null && (
          <p role="status" data-testid={TID.remoteConnecting}>
            Connecting to {connecting}…
          </p>
        )}
        {problem && (
          <p className="field-error" role="alert" data-testid={TID.remoteError}>
            {problem}
          </p>
        )}
        {noEngine && connecting === null && (
          <CopyEngineOffer
            key={noEngine.target}
            target={noEngine.target}
            host={noEngine.host}
            onCopied={() => void connect({ target: noEngine.target, transport: null, remoteEnvKeys })}
          />
        )}
        <button type="submit" data-testid={TID.remoteConnect} disabled={connecting !== null}>
          Connect
        </button>
      </form>
    </Dialog>
  );
}
