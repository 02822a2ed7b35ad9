import type { ManagedPolicy } from "../../shared/ipc";
import { TID } from "../../shared/testids";

/**
 * The organisation's policy (`/etc/warden/managed-settings.json`) as Warden read it: its rules,
 * which apply to every project and cannot be changed here, or why the file cannot be used (then
 * no host is reachable). Nothing when there is no policy.
 */
export function OrganisationPolicy({ managed }: { managed: ManagedPolicy | undefined }) {
  const switches = managed ? switchesOf(managed) : [];
  if (!managed || (managed.rules.length === 0 && !managed.problem && managed.warnings.length === 0 && switches.length === 0)) {
    return null;
  }
  return (
    <div data-testid={TID.sandboxManaged}>
      {managed.problem ? (
        <p className="field-error" data-testid={TID.sandboxManagedProblem}>
          Your organisation&apos;s policy (<code>{managed.file}</code>) cannot be used: {managed.problem}. Until it is
          fixed, commands reach no host.
        </p>
      ) : (
        <details open>
          <summary>
            Set by your organisation for every project ({managed.rules.length}; <code>{managed.file}</code>, not
            changed here)
          </summary>
          <ul className="path-list">
            {managed.rules.map((r, i) => (
              <li key={i}>
                {r.effect === "allow" ? "allow" : "deny"} <code>{r.pattern ?? "every host"}</code>
              </li>
            ))}
          </ul>
        </details>
      )}
      {switches.map((line) => (
        <p key={line} className="muted" data-testid={TID.sandboxManagedSwitch}>
          {line}
        </p>
      ))}
      {managed.warnings.map((w) => (
        <p key={w} className="field-warning">
          ⚠ {w}
        </p>
      ))}
    </div>
  );
}

/** What the organisation turned off, one line each. */
function switchesOf(managed: ManagedPolicy): string[] {
  return [
    managed.managedRulesOnly && "Only your organisation's allow rules count: your own and the project's allow rules are not used.",
    managed.noAlways && "“Always allow…” is turned off by your organisation: approvals are for once or this session.",
    managed.noAutonomous && "The Autonomous trust level is turned off by your organisation.",
  ].filter((line): line is string => typeof line === "string");
}
