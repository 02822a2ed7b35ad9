// Settings → Hooks: the user's hooks, by event, each with the tools it is for, its command, its
// time limit and its "runs outside the box" switch; Edit and Remove.
import type { HooksConfig } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { VisibleText, WRAP } from "../../shared/ui/VisibleText";
import { TOOL_EVENTS, hookEntries, type HookAt, type HookEntry } from "./hooksModel";
import { OutsideBoxWarning } from "./OutsideBoxWarning";

const sameAt = (a: HookAt, b: HookAt | null) => !!b && a.event === b.event && a.group === b.group && a.index === b.index;

export function UserHookList({
  hooks,
  editing,
  busy,
  onEdit,
  onRemove,
  onOutsideBox,
}: {
  hooks: HooksConfig;
  /** The hook whose form is open (its row is not shown twice). */
  editing: HookAt | null;
  /** A change is being checked and saved, or a form is open: the rows wait. */
  busy: boolean;
  onEdit: (at: HookAt, entry: HookEntry) => void;
  onRemove: (at: HookAt) => void;
  onOutsideBox: (at: HookAt, entry: HookEntry, on: boolean) => void;
}) {
  const entries = hookEntries(hooks);
  if (entries.length === 0) return <p className="muted">No hooks of yours yet.</p>;
  const events = [...new Set(entries.map((e) => e.event))];
  return (
    <>
      {events.map((event) => (
        <div key={event}>
          <h4>{event}</h4>
          <ul className="hook-list">
            {entries
              .filter((e) => e.event === event && !sameAt(e.at, editing))
              .map(({ at, ...entry }) => (
                <HookRow
                  key={`${at.group}-${at.index}`}
                  entry={entry}
                  busy={busy}
                  onEdit={() => onEdit(at, entry)}
                  onRemove={() => onRemove(at)}
                  onOutsideBox={(on) => onOutsideBox(at, entry, on)}
                />
              ))}
          </ul>
        </div>
      ))}
    </>
  );
}

function HookRow({
  entry,
  busy,
  onEdit,
  onRemove,
  onOutsideBox,
}: {
  entry: HookEntry;
  busy: boolean;
  onEdit: () => void;
  onRemove: () => void;
  onOutsideBox: (on: boolean) => void;
}) {
  const { event, matcher, hook } = entry;
  const outside = hook.outsideBox ?? false;
  return (
    <li className="hook-row" data-testid={TID.hookRow} data-event={event} data-matcher={matcher}>
      <div className="hook-row-head">
        {TOOL_EVENTS.includes(event) && (
          <span>
            {matcher && matcher !== "*" ? (
              <>
                for <code>{matcher}</code>
              </>
            ) : (
              "for every tool"
            )}
          </span>
        )}
        <span className="muted small">time limit {hook.timeout ?? 60} s</span>
        <span className="hook-row-actions">
          <button type="button" className="link" data-testid={TID.hookEdit} disabled={busy} onClick={onEdit}>
            Edit
          </button>
          <button type="button" className="link" data-testid={TID.hookRemove} disabled={busy} onClick={onRemove}>
            Remove
          </button>
        </span>
      </div>
      <div className="hook-row-command" style={WRAP}>
        <VisibleText text={hook.command} />
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          data-testid={TID.hookOutsideBox}
          checked={outside}
          disabled={busy}
          onChange={(e) => onOutsideBox(e.target.checked)}
        />
        Runs outside the box
      </label>
      {outside && <OutsideBoxWarning />}
    </li>
  );
}
