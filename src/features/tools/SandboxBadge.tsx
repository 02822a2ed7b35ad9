import type { JsonValue } from "../../shared/ipc";
import { TID } from "../../shared/testids";

/** How a command ran, from its result's metadata: inside Warden's OS sandbox (with what) or not. */
export type SandboxState = { contained: true; summary: string } | { contained: false };

export function sandboxOf(metadata: JsonValue | null): SandboxState | null {
  if (!metadata || typeof metadata !== "object" || Array.isArray(metadata)) return null;
  const { contained, sandbox } = metadata;
  if (contained === true) return { contained: true, summary: typeof sandbox === "string" ? sandbox : "contained" };
  if (contained === false) return { contained: false };
  return null;
}

/** A shield with what the box allowed ("no network · writes: project"), or a plain warning. */
export function SandboxBadge({ metadata }: { metadata: JsonValue | null }) {
  const state = sandboxOf(metadata);
  if (!state) return null;
  if (state.contained) {
    return (
      <span className="tool-sandbox" data-testid={TID.toolSandbox} title="Ran inside Warden's sandbox">
        <span aria-hidden>🛡 </span>
        {state.summary}
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
