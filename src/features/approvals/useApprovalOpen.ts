// A click on an approval's desktop notification: the app has raised the window; the window shows
// that conversation (leaving Settings if they are open) and puts the focus on the approval card.
import { useRef } from "react";
import { subscribeApprovalOpen } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { useListener } from "../../shared/useListener";

/** How many frames to wait for the card to be drawn in the conversation just shown. */
const FRAMES = 30;
/** How many frames the card must keep the focus: the conversation just shown puts the caret in
 * its message field as it mounts, which would take it back. */
const HELD = 3;

/** Focus the approval card once it is drawn, and keep it there while the conversation settles. */
export function focusApprovalCard(framesLeft = FRAMES, held = 0): void {
  const card = document.querySelector<HTMLElement>(`[data-testid="${TID.approvalDialog}"]`);
  if (card && document.activeElement !== card) {
    card.focus();
    card.scrollIntoView?.({ block: "nearest" });
    held = 0;
  } else if (card) {
    held += 1;
  }
  if (held < HELD && framesLeft > 0) requestAnimationFrame(() => focusApprovalCard(framesLeft - 1, held));
}

export function useApprovalOpen(showConversation: (conversationId: string) => void): void {
  const latest = useRef(showConversation);
  latest.current = showConversation;
  useListener(
    () =>
      subscribeApprovalOpen(({ conversationId }) => {
        latest.current(conversationId);
        requestAnimationFrame(() => focusApprovalCard());
      }),
    "clicked approval notifications",
  );
}
