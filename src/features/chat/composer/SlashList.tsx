// The slash commands matching what is typed, above the message field: a listbox the field drives
// (useSlashCompletion.ts). A click chooses an entry; the caret stays in the field throughout.
import { useEffect } from "react";
import { TID } from "../../../shared/testids";
import { ORIGIN_LABEL, type SlashItem } from "./slashCommands";
import type { SlashCompletion } from "./useSlashCompletion";

/** The badge after an entry: where a custom command comes from, or that it is a skill. */
function KindBadge({ item }: { item: SlashItem }) {
  if (item.kind === "builtin") return null;
  const label = item.kind === "skill" ? "skill" : ORIGIN_LABEL[item.origin];
  const title = item.kind === "skill" ? `A skill (${ORIGIN_LABEL[item.origin]}): ${item.path}` : item.path;
  return (
    <span className="badge slash-badge" title={title}>
      {label}
    </span>
  );
}

export function SlashList({ completion }: { completion: SlashCompletion }) {
  const { open, matches, index, listId, optionId, complete } = completion;
  useEffect(() => {
    if (open) document.getElementById(optionId(index))?.scrollIntoView?.({ block: "nearest" });
  }, [open, index, optionId]);
  if (!open) return null;
  return (
    <div className="slash-anchor">
      <ul
        id={listId}
        className="slash-list"
        role="listbox"
        aria-label="Commands and skills"
        data-testid={TID.slashList}
      >
        {matches.map((item, i) => (
          <li
            key={`${item.kind} ${item.name} ${"path" in item ? item.path : ""}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === index}
            className={`slash-option${i === index ? " chosen" : ""}`}
            data-testid={TID.slashOption}
            data-name={item.name}
            data-kind={item.kind}
            // The caret stays in the message field, where the keys go on working.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => complete(item)}
          >
            <span className="slash-name">/{item.name}</span>
            {item.kind === "command" && item.hint && <span className="slash-hint">{item.hint}</span>}
            {item.description && <span className="slash-description muted">{item.description}</span>}
            <KindBadge item={item} />
          </li>
        ))}
      </ul>
    </div>
  );
}
