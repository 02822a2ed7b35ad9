// Retry and Regenerate as the user meets them: the button disables itself while it works and then
// goes away with the turn it retried, so the caret must be put back in the message field.
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import type { HistoryMessage } from "../../../shared/ipc";
import { createChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { renderConversation } from "../../../test/renderConversation";
import { C, streamEnd, streamStart, userSend } from "../../checkpoints/testEvents";

const history: HistoryMessage[] = [{ role: "user", content: [{ type: "text", text: "fix the test" }] }];

function setup(answered: boolean) {
  const calls: string[] = [];
  mockIPC((cmd) => {
    calls.push(cmd);
    if (cmd === "chat_rewind") return "fix the test";
    if (cmd === "chat_history") return answered ? [] : history;
    if (cmd === "chat_message_stamps" || cmd === "checkpoint_list" || cmd === "tools_catalog") return [];
    return null;
  });
  const store = createChatStore();
  store.dispatchMany(answered ? [userSend("u1", "fix the test"), streamStart("a1"), streamEnd("a1")] : [userSend("u1", "fix the test")]);
  if (!answered) store.dispatch({ type: "send-failed", conversationId: C, message: "No key.", code: "MISSING_CREDENTIALS" });
  renderConversation(store, { conversationId: C });
  return calls;
}

describe("Retry and Regenerate", () => {
  for (const [label, answered] of [
    ["Regenerate", true],
    ["Retry", false],
  ] as const) {
    it(`${label} sends the last message again and puts the caret back in the message field`, async () => {
      const calls = setup(answered);
      const button = screen.getByTestId(TID.retryLast);
      expect(button).toHaveTextContent(label);
      await userEvent.click(button);
      await waitFor(() => expect(calls).toContain("chat_send"));
      await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());
    });
  }
});
