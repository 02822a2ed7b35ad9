import { useMemo } from "react";
import { TID } from "../../../shared/testids";
import { diffStats, parseUnifiedDiff } from "../diff";
import { ShowMoreButton, useShowMore } from "./ShowMore";

/** Rows a diff shows before "Show more". */
export const DIFF_ROW_CAP = 2_000;

export function DiffView({ diff, path }: { diff: string; path?: string }) {
  const lines = useMemo(() => parseUnifiedDiff(diff), [diff]);
  const { added, removed } = diffStats(lines);
  const { shown, more } = useShowMore(lines.length, DIFF_ROW_CAP);
  if (added === 0 && removed === 0) {
    // The same content written again: say so instead of an empty "+0 −0".
    return (
      <div className="diff" data-testid={TID.diffView} data-empty>
        <div className="diff-head">
          {path && <span className="diff-path">{path}</span>}
          <span className="muted">no changes</span>
        </div>
      </div>
    );
  }
  // A scroll box of its own: it takes the focus (Tab reaches it) so PageDown and the arrow keys
  // read a long diff to its end, also inside the approval card, whose own focus scrolls the card.
  return (
    <div className="diff" data-testid={TID.diffView} tabIndex={0} role="region" aria-label={path ? `Changes to ${path}` : "Changes"}>
      <div className="diff-head">
        {path && <span className="diff-path">{path}</span>}
        <span className="diff-added">+{added}</span> <span className="diff-removed">−{removed}</span>
      </div>
      <table className="diff-table">
        <tbody>
          {lines.slice(0, shown).map((l, i) => (
            <tr key={i} className={`diff-${l.kind}`} data-kind={l.kind}>
              <td className="diff-no">{l.oldNo ?? ""}</td>
              <td className="diff-no">{l.newNo ?? ""}</td>
              <td className="diff-sign">{l.kind === "add" ? "+" : l.kind === "del" ? "−" : ""}</td>
              <td className="diff-text">{l.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ShowMoreButton hidden={lines.length - shown} step={DIFF_ROW_CAP} unit="lines" onClick={more} />
    </div>
  );
}
