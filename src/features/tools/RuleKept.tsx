import type { RuleNote } from "../../shared/ipc";
import { TID } from "../../shared/testids";

/** Under a call answered "Always allow…": the rule kept (Settings → Permissions lists it), or why none was. */
export function RuleKept({ rule }: { rule: RuleNote | null | undefined }) {
  if (!rule) return null;
  return (
    <p className={`tool-rule small ${rule.kept ? "muted" : "field-error"}`} data-testid={TID.toolRule} data-kept={rule.kept}>
      {rule.kept ? (
        <>
          Kept the rule <code>{rule.words}</code>; Settings → Permissions lists it.
        </>
      ) : (
        <>No rule was kept: {rule.words}</>
      )}
    </p>
  );
}
