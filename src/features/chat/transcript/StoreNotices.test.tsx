import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { ConversationSummary, HistoryMessage, ReadOnlyHistory } from "../../../shared/ipc";
import { connectEvents } from "../../../shared/store/bridge";
import { ChatStoreProvider, createChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { renderConversation } from "../../../test/renderConversation";
import { ChatScreen } from "../ChatScreen";
import { resetDraftsForTests } from "../composer/drafts";

const ID = "conv-bad";
const SUMMARY: ConversationSummary = { id: ID, title: "Docs", projectRoot: null, updatedAtMs: 1, messageCount: 3 };
const STAMP = { atMs: 1_700_000_000_000, model: null };
/** What the engine could read: the question, an answer it could not, then one with a newer Warden's part. */
const READ_ONLY: ReadOnlyHistory = {
  reason: "message 2 cannot be read (it is damaged: its text is cut off or is not JSON)",
  rows: [
    { kind: "read", message: { role: "user", content: [{ type: "text", text: "What do the docs say?" }] }, stamp: STAMP },
    { kind: "unreadable", reason: "it is damaged: its text is cut off or is not JSON" },
    {
      kind: "read",
      message: { role: "assistant", content: [{ type: "text", text: "Two sources." }, { type: "citation" }] },
      stamp: { atMs: 1_700_000_000_000, model: "claude-test" },
    },
  ],
};
const WHOLE: HistoryMessage[] = [
  { role: "user", content: [{ type: "text", text: "What do the docs say?" }] },
  { role: "assistant", content: [{ type: "text", text: "They say two things." }] },
];

let readable: boolean;
let calls: string[];
beforeEach(() => {
  localStorage.clear();
  resetDraftsForTests();
  readable = false;
  calls = [];
  mockIPC(
    (cmd, args) => {
      calls.push(cmd);
      const id = (args as { conversationId?: string } | undefined)?.conversationId;
      switch (cmd) {
        case "chat_list":
          return { conversations: [SUMMARY], nextOffset: null };
        case "chat_history":
          if (id === ID && !readable) {
            throw { code: "CONVERSATION_UNREADABLE", message: `Conversation ${ID} cannot be read whole: ${READ_ONLY.reason}.` };
          }
          return id === ID ? WHOLE : [];
        case "chat_history_read_only":
          return READ_ONLY;
        case "chat_message_stamps":
        case "checkpoint_list":
          return [];
        default:
          return null;
      }
    },
    { shouldMockEvents: true },
  );
});

describe("a conversation the store cannot read whole", () => {
  it("opens read-only: says why, shows what could be read, marks what could not, and sends nothing", async () => {
    render(
      <ChatStoreProvider store={createChatStore()}>
        <ChatScreen onOpenSettings={() => {}} />
      </ChatStoreProvider>,
    );
    const banner = await screen.findByTestId(TID.readOnlyBanner);
    expect(banner).toHaveTextContent("Read-only: this conversation cannot be read whole.");
    expect(banner).toHaveTextContent("message 2 cannot be read");
    expect(calls).toContain("chat_history_read_only");

    const [question, unreadable, answer] = screen.getAllByTestId(/^message(-unreadable)?$/);
    expect(question).toHaveTextContent("What do the docs say?");
    expect(unreadable).toHaveAttribute("data-testid", TID.messageUnreadable);
    expect(unreadable).toHaveTextContent("A message here could not be read: it is damaged");
    expect(answer).toHaveTextContent("Two sources.");
    expect(within(answer!).getByTestId(TID.messageNewer)).toHaveTextContent("From a newer Warden");
    expect(within(answer!).getByTestId(TID.messageNewer)).toHaveAttribute("data-block-type", "citation");

    // Nothing can be sent, rewound or compacted into it.
    expect(screen.getByTestId(TID.composerInput)).toBeDisabled();
    expect(screen.getByTestId(TID.composerInput)).toHaveAttribute("placeholder", expect.stringContaining("read-only"));
    expect(screen.getByTestId(TID.send)).toBeDisabled();
    expect(screen.queryByTestId(TID.rewindConversation)).toBeNull();
    expect(screen.queryByTestId(TID.compactNow)).toBeNull();
    expect(calls).not.toContain("chat_send");

    // Once it reads whole again, Try again opens it as usual.
    readable = true;
    await userEvent.click(screen.getByTestId(TID.readOnlyRetry));
    await waitFor(() => expect(screen.queryByTestId(TID.readOnlyBanner)).toBeNull());
    expect(screen.getByText("They say two things.")).toBeInTheDocument();
    expect(screen.getByTestId(TID.composerInput)).toBeEnabled();
  });
});

describe("a conversation that is not being saved", () => {
  it("says so, and why, above the composer until every message is saved again", async () => {
    const store = createChatStore();
    const stop = await connectEvents(store, (flush) => flush());
    renderConversation(store, { conversationId: "conv-1" });
    expect(screen.queryByTestId(TID.notSaved)).toBeNull();

    const reason = "the conversation store: the disk is full (database or disk is full)";
    await act(() => emit("chat:saving", { conversationId: "conv-1", saved: false, reason }));
    const notice = screen.getByTestId(TID.notSaved);
    expect(notice).toHaveTextContent("This conversation is not being saved.");
    expect(notice).toHaveTextContent(reason);
    expect(notice).toHaveAttribute("role", "alert");

    // It stays while more messages come.
    await act(() => emit("chat:stream-start", { conversationId: "conv-1", messageId: "m1", provider: "anthropic", model: "m", contextWindow: 1000 }));
    await act(() => emit("chat:text-delta", { conversationId: "conv-1", messageId: "m1", delta: "Hi." }));
    expect(screen.getByTestId(TID.notSaved)).toBeInTheDocument();

    await act(() => emit("chat:saving", { conversationId: "conv-1", saved: true }));
    expect(screen.queryByTestId(TID.notSaved)).toBeNull();
    stop();
  });
});
