// Text as it really is: hidden characters (see hiddenChars.ts) as badges, long lines wrapped so no
// tail is ever pushed off to the side.
import type { CSSProperties } from "react";
import { badgeLabel, pieces } from "../hiddenChars";

/** Wrap anywhere, keep newlines: nothing of a long line is hidden sideways. */
export const WRAP: CSSProperties = { whiteSpace: "pre-wrap", overflowWrap: "anywhere", wordBreak: "break-all" };

export function VisibleText({ text }: { text: string }) {
  return (
    <>
      {pieces(text).map((piece, i) =>
        piece.kind === "text" ? (
          piece.text
        ) : (
          <span key={i} className="hidden-char" title="A character that is invisible or changes how text is shown">
            {badgeLabel(piece.codePoint)}
          </span>
        ),
      )}
    </>
  );
}
