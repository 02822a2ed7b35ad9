import type { Settings, ToolPermissions } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { LinesField } from "../../shared/ui/LinesField";
import { PathDetails } from "./PathDetails";
import { allowedHosts, credentialPaths, setProjectPermissions, withAllowedHosts } from "./settingsModel";

type SandboxProjectFieldsProps = {
  settings: Settings;
  perms: ToolPermissions;
  /** The package registries' hosts. */
  registryHosts: string[];
  /** Where credentials are kept on this machine. */
  credentialLocations: string[];
  onChange: (s: Settings) => void;
};

/**
 * The project's sandbox settings (`perms`): whether its commands may use the network, reach the
 * package registries, which hosts they reach without asking, and the other folders they may write
 * or read (with a warning for each place credentials are kept).
 */
export function SandboxProjectFields({
  settings,
  perms,
  registryHosts,
  credentialLocations,
  onChange,
}: SandboxProjectFieldsProps) {
  const withCredentials = credentialPaths(perms.extraReadable ?? [], credentialLocations);
  return (
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
        <PathDetails
          summary={<>The registries&apos; hosts ({registryHosts.length})</>}
          paths={registryHosts}
          testId={TID.sandboxRegistryHosts}
        />
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
  );
}
