import type { Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import type { RemoteProject } from "../remote/remoteStore";
import { OrganisationPolicy } from "./OrganisationPolicy";
import { RemoteSandboxes } from "./RemoteSandboxes";
import { SandboxContainment } from "./SandboxContainment";
import { SandboxProjectFields } from "./SandboxProjectFields";
import { projectPermissions } from "./settingsModel";
import { useSandboxStatus } from "./useSandboxStatus";

/** Settings → Sandbox: how commands are contained here, and the project's network and extra folders. */
export function SandboxSection({
  settings,
  onChange,
  remoteProjects = [],
}: {
  settings: Settings;
  onChange: (s: Settings) => void;
  /** The remote projects linked in this window: the box of each, on its machine. */
  remoteProjects?: RemoteProject[];
}) {
  const { status, error, clearing, clearError, clearLayer } = useSandboxStatus(settings.projectDir);
  const perms = projectPermissions(settings);
  const userRules = (settings.permissionRules ?? []).filter((r) => r.tool === "network");

  return (
    <section className="settings-section">
      <h3>Sandbox</h3>
      <SandboxContainment
        status={status}
        error={error}
        clearing={clearing}
        clearError={clearError}
        onClearLayer={() => void clearLayer()}
      />
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
      <RemoteSandboxes projects={remoteProjects} />
      <OrganisationPolicy managed={status?.managed} />
      {perms ? (
        <SandboxProjectFields
          settings={settings}
          perms={perms}
          registryHosts={status?.registryHosts ?? []}
          credentialLocations={status?.credentialLocations ?? []}
          onChange={onChange}
        />
      ) : (
        <p className="muted">Choose a project folder to set its network and extra folders.</p>
      )}
    </section>
  );
}
