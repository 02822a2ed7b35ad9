import { useMemo, type CSSProperties } from "react";
import { TID } from "../../../shared/testids";
import { parseAnsi, type AnsiStyle } from "../ansi";

/** Shown at most; a longer output keeps its tail, where the error usually is. */
export const BASH_VIEW_CAP = 50_000;

function spanProps(style: AnsiStyle): { className?: string; style?: CSSProperties } {
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
  return {
    className: classes.length ? classes.join(" ") : undefined,
    style: Object.keys(css).length ? css : undefined,
  };
}

export function BashOutput({ text, dropped = 0 }: { text: string; dropped?: number }) {
  const cut = Math.max(0, text.length - BASH_VIEW_CAP);
  const spans = useMemo(() => parseAnsi(cut ? text.slice(cut) : text), [text, cut]);
  const hidden = cut + dropped;
  return (
    <pre className="terminal" data-testid={TID.bashOutput}>
      {hidden > 0 && <span className="terminal-note">… {hidden.toLocaleString()} earlier characters not shown{"\n"}</span>}
      {spans.map((s, i) => (
        <span key={i} {...spanProps(s.style)}>
          {s.text}
        </span>
      ))}
      {!text && <span className="terminal-note">(no output)</span>}
    </pre>
  );
}
