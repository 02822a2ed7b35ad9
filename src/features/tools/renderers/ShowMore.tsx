// Views of tool input and output that can be huge (a 20 MB result, a 100,000-line diff) show a
// part and grow on request, so one tool block can never freeze the window.
import { useState } from "react";
import { formatCount } from "../../../shared/format";
import { TID } from "../../../shared/testids";
import { VisibleText } from "../../../shared/ui/VisibleText";

/** Characters a text view shows before "Show more". */
export const TEXT_VIEW_CAP = 50_000;

/** How many items are shown of `total`, growing by `step` on each "Show more". */
export function useShowMore(total: number, step: number): { shown: number; more: () => void } {
  const [limit, setLimit] = useState(step);
  return { shown: Math.min(total, limit), more: () => setLimit((l) => l + step) };
}

export function ShowMoreButton({ hidden, step, unit, onClick }: { hidden: number; step: number; unit: string; onClick: () => void }) {
  if (hidden <= 0) return null;
  return (
    <button type="button" className="show-more" data-testid={TID.showMore} onClick={onClick}>
      {formatCount(hidden)} more {unit} not shown — show {formatCount(Math.min(hidden, step))} more
    </button>
  );
}

/**
 * A `<pre>` of text, cut at `cap` characters with a button for the next part. `visible`: untrusted
 * text whose hidden characters (bidi overrides, controls) are shown as badges, never applied.
 */
export function CappedPre({
  text,
  className,
  testId,
  cap = TEXT_VIEW_CAP,
  visible = false,
}: {
  text: string;
  className: string;
  testId?: string;
  cap?: number;
  visible?: boolean;
}) {
  const { shown, more } = useShowMore(text.length, cap);
  const part = shown < text.length ? text.slice(0, shown) : text;
  return (
    <>
      <pre className={className} data-testid={testId}>
        {visible ? <VisibleText text={part} /> : part}
      </pre>
      <ShowMoreButton hidden={text.length - shown} step={cap} unit="characters" onClick={more} />
    </>
  );
}
