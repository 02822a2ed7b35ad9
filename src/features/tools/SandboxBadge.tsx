import type { BoxUse } from "../../shared/ipc";
import { TID } from "../../shared/testids";

/** A shield with what the box allowed ("no network · writes: project"), or a plain warning. */
export function SandboxBadge({ sandbox }: { sandbox: BoxUse | null | undefined }) {
  if (!sandbox) return null;
  if (sandbox.contained) {
    return (
      <span className="tool-sandbox" data-testid={TID.toolSandbox} title="Ran inside Warden's sandbox">
        <span aria-hidden>🛡 </span>
        {sandbox.summary ?? "contained"}
      </span>
    );
  }
  return (
    <span
      className="tool-sandbox tool-sandbox-off"
      data-testid={TID.toolSandbox}
      title="Ran with your full access: no OS sandbox contained it"
    >
      <span aria-hidden>⚠ </span>not contained
    </span>
  );
}
