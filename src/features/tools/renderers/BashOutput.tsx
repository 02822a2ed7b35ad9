import { useMemo, type CSSProperties } from "react";
import { formatCount } from "../../../shared/format";
import { TID } from "../../../shared/testids";
import { parseAnsiSegments, splitByRanges, tailStart, type AnsiSpan } from "../ansi";

/** Shown at most; a longer output keeps its tail, where the error usually is. */
export const BASH_VIEW_CAP = 50_000;

function spanProps(span: AnsiSpan): { className?: string; style?: CSSProperties } {
  const { style } = span;
  const classes: string[] = [];
  const css: CSSProperties = {};
  const fg = style.inverse ? style.bg : style.fg;
  const bg = style.inverse ? (style.fg ?? "ansi-fg-default") : style.bg;
  if (fg?.startsWith("ansi-")) classes.push(`${fg}-fg`);
  else if (fg) css.color = fg;
  if (bg?.startsWith("ansi-")) classes.push(`${bg}-bg`);
  else if (bg) css.backgroundColor = bg;
  if (style.bold) classes.push("ansi-bold");
  if (style.dim) classes.push("ansi-dim");
  if (style.italic) classes.push("ansi-italic");
  if (style.underline) classes.push("ansi-underline");
  if (span.stderr) classes.push("stderr");
  return {
    className: classes.length ? classes.join(" ") : undefined,
    style: Object.keys(css).length ? css : undefined,
  };
}

export function BashOutput({
  text,
  stderr = [],
  dropped = 0,
}: {
  text: string;
  /** [start, end) ranges of `text` that came from stderr. */
  stderr?: readonly (readonly [number, number])[];
  /** Characters that arrived after the store's cap and are not in `text`. */
  dropped?: number;
}) {
  const cut = tailStart(text, Math.max(0, text.length - BASH_VIEW_CAP));
  const spans = useMemo(
    () => parseAnsiSegments(splitByRanges(cut ? text.slice(cut) : text, cut, stderr)),
    [text, cut, stderr],
  );
  return (
    <pre className="terminal" data-testid={TID.bashOutput}>
      {cut > 0 && <span className="terminal-note">… {formatCount(cut)} earlier characters not shown{"\n"}</span>}
      {spans.map((s, i) => (
        <span key={i} {...spanProps(s)}>
          {s.text}
        </span>
      ))}
      {!text && <span className="terminal-note">(no output)</span>}
      {dropped > 0 && (
        <span className="terminal-note">
          {"\n"}… {formatCount(dropped)} more characters not shown live
        </span>
      )}
    </pre>
  );
}
