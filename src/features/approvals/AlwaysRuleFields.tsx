// The fields of the "Always allow…" editor: the rule's pattern, and where the rule is kept.
import type { RefObject } from "react";
import { TID } from "../../shared/testids";

export type Scope = "project" | "user";

/** The pattern of the rule (a command, paths, a host); read-only when only the exact command may be kept. */
export function AlwaysPattern({
  tool,
  pattern,
  exactOnly,
  disabled,
  inputRef,
  onChange,
}: {
  tool: string;
  pattern: string;
  exactOnly: boolean;
  disabled: boolean;
  inputRef: RefObject<HTMLInputElement | null>;
  onChange: (pattern: string) => void;
}) {
  return (
    <label className="always-pattern">
      {tool === "bash" ? "Command (a last * stands for any further words)" : tool === "network" ? "Host" : "Paths"}
      <input
        ref={inputRef}
        type="text"
        data-testid={TID.alwaysPattern}
        value={pattern}
        readOnly={exactOnly}
        aria-readonly={exactOnly || undefined}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          // Enter never approves from here: the rule is saved with the button only.
          if (e.key === "Enter") e.preventDefault();
        }}
      />
    </label>
  );
}

/** Where to keep the rule: this project or all projects (radios named `name`). */
export function AlwaysScope({
  name,
  scope,
  disabled,
  onChange,
}: {
  name: string;
  scope: Scope;
  disabled: boolean;
  onChange: (scope: Scope) => void;
}) {
  return (
    <div role="radiogroup" aria-label="Where to keep the rule" className="always-scope">
      {(["project", "user"] as const).map((s) => (
        <label key={s} className="checkbox">
          <input
            type="radio"
            name={name}
            data-testid={TID.alwaysScope[s]}
            checked={scope === s}
            disabled={disabled}
            onChange={() => onChange(s)}
          />
          {s === "project" ? "This project" : "All projects"}
        </label>
      ))}
    </div>
  );
}
