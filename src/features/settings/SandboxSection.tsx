import { useEffect, useState } from "react";
import { api, type SandboxStatus, type Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { allowedHosts, credentialPaths, projectPermissions, setProjectPermissions, withAllowedHosts } from "./settingsModel";
import { formatBytes, messageOf } from "../../shared/format";
import { OrganisationPolicy } from "./OrganisationPolicy";
import { LinesField } from "../../shared/ui/LinesField";

/** Settings → Sandbox: how commands are contained here, and the project's network and extra folders. */
export function SandboxSection({ settings, onChange }: { settings: Settings; onChange: (s: Settings) => void }) {
  const [status, setStatus] = useState<SandboxStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const perms = projectPermissions(settings);
  const readable = status?.readable ?? [];
  const registryHosts = status?.registryHosts ?? [];
  const withCredentials = credentialPaths(perms?.extraReadable ?? [], status?.credentialLocations ?? []);
  const userRules = (settings.permissionRules ?? []).filter((r) => r.tool === "network");
  const [clearing, setClearing] = useState(false);
  const [clearError, setClearError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api.sandboxStatus().then(
      (s) => live && setStatus(s),
      (e: unknown) => live && setError(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, [settings.projectDir]);

  /** Remove the project's cache layer, then show the status again (its size is then 0). */
  const clearLayer = async () => {
    setClearing(true);
    setClearError(null);
    try {
      await api.sandboxClearCacheLayer();
      setStatus(await api.sandboxStatus());
    } catch (e: unknown) {
      setClearError(messageOf(e));
    } finally {
      setClearing(false);
    }
  };

  return (
    <section className="settings-section">
      <h3>Sandbox</h3>
      <p data-testid={TID.sandboxMechanism} className={status && !status.contained ? "field-error" : "muted"}>
        {status === null
          ? (error ?? "Checking how commands are contained…")
          : status.contained
            ? `Commands run in an OS sandbox (${status.mechanism}): they write only in the project${
                status.writable.length ? ", the folders below" : ""
              } and a private /tmp${
                status.caches.length
                  ? status.layered
                    ? " (what they write to your package caches goes to this project's own layer, never to your caches)"
                    : " (your package caches are read-only)"
                  : ""
              }, see of your home only the toolchains below (and what you add), cannot see your secrets, and have no network unless allowed — and then only through Warden's proxy, which asks you about each host the rules below do not name.`
            : `Commands are not contained on this machine (${status.mechanism}). They run with your full access, so every command asks first, even in Autonomous.`}
      </p>
      {status?.contained && status.writable.length > 0 && (
        <details>
          <summary>Other folders commands may write</summary>
          <ul className="path-list">
            {status.writable.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      {status?.contained && status.caches.length > 0 && (
        <details>
          <summary>Your package caches ({status.caches.length}, read-only{status.layered ? ", with this project's layer over them" : ""})</summary>
          <ul className="path-list">
            {status.caches.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      {status?.contained && status.layered && (
        <p className="muted" data-testid={TID.sandboxCacheLayer}>
          This project&apos;s cache layer (downloads and unpacked packages its commands wrote):{" "}
          {formatBytes(status.cacheLayerBytes)}{" "}
          <button
            type="button"
            data-testid={TID.sandboxCacheLayerClear}
            disabled={clearing || status.cacheLayerBytes === 0}
            onClick={() => void clearLayer()}
          >
            Clear
          </button>
          {clearError && <span className="field-error"> {clearError}</span>}
        </p>
      )}
      {status?.contained && !status.layered && status.caches.length > 0 && status.layerUnavailable && (
        <p className="muted" data-testid={TID.sandboxCacheLayer}>
          No private cache layer on this machine ({status.layerUnavailable}): your package caches stay read-only in
          the box, so a command that must download into one fails. Offline builds from them still work.
        </p>
      )}
      {status?.contained && readable.length > 0 && (
        <details>
          <summary>What commands see of your home ({readable.length}, read-only)</summary>
          <ul className="path-list">
            {readable.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      {status?.contained && status.hidden.length > 0 && (
        <details>
          <summary>Hidden from commands ({status.hidden.length})</summary>
          <ul className="path-list">
            {status.hidden.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      {userRules.length > 0 && (
        <details data-testid={TID.sandboxUserRules}>
          <summary>Your network rules, for every project ({userRules.length})</summary>
          <ul className="path-list">
            {userRules.map((r, i) => (
              <li key={i}>
                {r.effect === "allow" ? "allow" : "deny"} <code>{r.pattern ?? "every host"}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      <OrganisationPolicy managed={status?.managed} />
      {perms ? (
        <>
          <label className="checkbox">
            <input
              type="checkbox"
              data-testid={TID.sandboxNetwork}
              checked={perms.network !== "off"}
              onChange={(e) =>
                onChange(setProjectPermissions(settings, { network: e.target.checked ? "rules" : "off" }))
              }
            />
            Commands in this project may use the network (on by default; only through Warden's proxy: a host not
            listed below is asked about while the command waits — allow once, always, or deny). Off, they have no
            network at all, and a command that needs it asks first
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              data-testid={TID.sandboxRegistries}
              disabled={perms.network === "off"}
              checked={perms.allowRegistries ?? false}
              onChange={(e) => onChange(setProjectPermissions(settings, { allowRegistries: e.target.checked }))}
            />
            Reach the package registries and source hosts without asking (crates.io, npm, PyPI, Go modules, RubyGems,
            Maven Central, GitHub, GitLab; HTTPS, and only at their public addresses)
          </label>
          {(perms.allowRegistries ?? false) && registryHosts.length > 0 && (
            <details data-testid={TID.sandboxRegistryHosts}>
              <summary>The registries&apos; hosts ({registryHosts.length})</summary>
              <ul className="path-list">
                {registryHosts.map((h) => (
                  <li key={h}>
                    <code>{h}</code>
                  </li>
                ))}
              </ul>
            </details>
          )}
          <LinesField
            label={
              <>
                Hosts commands may reach without asking (a name, *.domain or host:port, one per line; &quot;Always for
                this project&quot; adds here; programs that use HTTP_PROXY or ALL_PROXY)
              </>
            }
            testId={TID.sandboxHosts}
            initial={allowedHosts(perms.permissionRules)}
            placeholder={"registry.internal\n192.168.1.20:8080"}
            onLines={(hosts) =>
              onChange(setProjectPermissions(settings, { permissionRules: withAllowedHosts(perms.permissionRules, hosts) }))
            }
          />
          <LinesField
            label="Other folders commands may write (absolute paths, one per line; secrets inside stay hidden)"
            testId={TID.sandboxWritable}
            initial={perms.extraWritable ?? []}
            onLines={(extraWritable) => onChange(setProjectPermissions(settings, { extraWritable }))}
          />
          <LinesField
            label="Other paths commands may read (absolute files or folders, one per line; never your whole home or Warden's own folders; secrets inside stay hidden unless you name them)"
            testId={TID.sandboxReadable}
            initial={perms.extraReadable ?? []}
            placeholder={"/home/me/datasets\n/home/me/.config/myregistry/token"}
            onLines={(extraReadable) => onChange(setProjectPermissions(settings, { extraReadable }))}
          />
          {withCredentials.map((p) => (
            <p key={p} className="field-warning" data-testid={TID.sandboxReadableWarning}>
              ⚠ <code>{p}</code> is where credentials are kept: commands will be able to read it, and what they read can
              reach the model.
            </p>
          ))}
        </>
      ) : (
        <p className="muted">Choose a project folder to set its network and extra folders.</p>
      )}
    </section>
  );
}
