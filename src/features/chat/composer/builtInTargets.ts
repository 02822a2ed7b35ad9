// The controls of the conversation shown that `/compact`, `/model` and `/rewind` use: found in the
// page, as the keyboard's helpers find the message field, so each control keeps showing its own
// progress and failure. Each returns why it could not, in a sentence for the user, or nothing.
import { TID } from "../../../shared/testids";

const byId = (id: string) => `[data-testid="${id}"]`;

/** Presses the conversation's "Compact now" (CompactControl), which says how it goes. */
export function compactNow(root: ParentNode): string | void {
  const button = root.querySelector<HTMLButtonElement>(byId(TID.compactNow));
  if (!button) return "This conversation cannot be compacted.";
  if (button.getAttribute("aria-busy") === "true") return "The conversation is being compacted.";
  if (button.disabled) {
    const said = root instanceof HTMLElement ? root.dataset.messageCount : undefined;
    if (said === "0") return "There is nothing to compact yet.";
    return "The conversation can be compacted once the answer is finished.";
  }
  button.click();
}

/** Opens the model switch: the focus goes to it (which lists the models); its list opens where the system allows. */
export function openModelSwitch(root: ParentNode): string | void {
  const select = root.querySelector<HTMLSelectElement>(byId(TID.modelSwitch));
  if (!select) return "There is no model switch here.";
  if (select.disabled) return "The model can be changed once the answer is finished.";
  select.focus();
  try {
    // Not in every webview; the focused switch opens with Space or Alt+Down there.
    (select as { showPicker?: () => void }).showPicker?.();
  } catch {
    // Refused (no user gesture seen): the switch keeps the focus.
  }
}

/** Opens the rewind control of the last message the user wrote, at its question, with the focus on Rewind. */
export function openRewind(root: ParentNode): string | void {
  const controls = root.querySelectorAll<HTMLButtonElement>(byId(TID.rewindConversation));
  const last = controls[controls.length - 1];
  if (!last) return "There is no message of yours to rewind to yet.";
  if (last.disabled) return "The conversation can be rewound once the answer is finished.";
  last.scrollIntoView?.({ block: "center" });
  last.click();
  // The question shows once the click is rendered (we may be inside the composer's key handler).
  requestAnimationFrame(() => root.querySelector<HTMLButtonElement>(byId(TID.rewindConfirm))?.focus());
}
