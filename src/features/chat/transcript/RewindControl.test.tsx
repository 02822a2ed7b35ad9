// "Rewind conversation to here" as the user meets it: the real store and reducer, the real
// conversation view, the Tauri IPC answered the way the Rust commands answer.
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import type { HistoryMessage as Message } from "../../../shared/ipc";
import { ChatStoreProvider, createChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { C, streamEnd, streamStart, userSend } from "../../checkpoints/testEvents";
import { ConversationView } from "./ConversationView";

const userText = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const reply = (text: string): Message => ({ role: "assistant", content: [{ type: "text", text }] });

function setup(rewind: (args: Record<string, unknown>) => unknown) {
  const calls: { cmd: string; args: Record<string, unknown> }[] = [];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    if (cmd === "chat_rewind") return rewind(a);
    if (cmd === "chat_history") return [userText("first"), reply("one")];
    if (cmd === "checkpoint_list" || cmd === "tools_catalog") return [];
    throw new Error(`unexpected command ${cmd}`);
  });
  const store = createChatStore();
  store.dispatchMany([
    userSend("u1", "first"),
    streamStart("a1"),
    { event: "chat:text-delta", payload: { conversationId: C, messageId: "a1", delta: "one" } },
    streamEnd("a1"),
    userSend("u2", "second"),
    streamStart("a2"),
    streamEnd("a2"),
  ]);
  render(
    <ChatStoreProvider store={store}>
      <ConversationView conversationId={C} />
    </ChatStoreProvider>,
  );
  return { calls, store };
}

describe("rewinding the conversation", () => {
  it("asks, drops the message and what follows, and offers its text again", async () => {
    const { calls, store } = setup(() => "second");
    const buttons = screen.getAllByTestId(TID.rewindConversation);
    expect(buttons).toHaveLength(2);
    await userEvent.click(buttons[1]!);
    expect(calls.filter((c) => c.cmd === "chat_rewind")).toHaveLength(0);
    await userEvent.click(screen.getByTestId(TID.rewindConfirm));

    await waitFor(() => expect(store.getState().conversations[C]!.messageIds).toHaveLength(2));
    expect(calls.find((c) => c.cmd === "chat_rewind")!.args).toEqual({ conversationId: C, userMessageIndex: 1 });
    expect(screen.getByTestId(TID.composerInput)).toHaveValue("second");
    // The caret is back in the message field, with the text to change and send again.
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());
    expect(screen.queryByText("second", { selector: ".user-text" })).toBeNull();

    // The history says what went, until the next message is sent.
    const notice = screen.getByTestId(TID.rewindNotice);
    expect(notice).toHaveAttribute("data-dropped", "2");
    expect(notice).toHaveTextContent("Rewound: 2 messages from “second” dropped");
    store.dispatch(userSend("u3", "second, edited"));
    await waitFor(() => expect(screen.queryByTestId(TID.rewindNotice)).toBeNull());
  });

  it("says why when the engine refuses, and keeps the conversation", async () => {
    const { store } = setup(() => {
      throw { code: "INVALID_INPUT", message: "This conversation is still answering: stop it before rewinding it." };
    });
    const user = screen.getAllByTestId(TID.message).filter((m) => m.getAttribute("data-role") === "user")[0]!;
    await userEvent.click(within(user).getByTestId(TID.rewindConversation));
    await userEvent.click(within(user).getByTestId(TID.rewindConfirm));
    expect(await within(user).findByTestId(TID.rewindError)).toHaveTextContent("still answering");
    expect(store.getState().conversations[C]!.messageIds).toHaveLength(4);
  });
});
