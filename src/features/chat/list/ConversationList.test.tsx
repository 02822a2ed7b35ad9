// Issue 36: the active conversation's Rename and Delete read as "✎" and "×" to a screen reader, and
// a rename finished with Enter or Esc left the caret nowhere (the field it was in went away).
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { ConversationSummary } from "../../../shared/ipc";
import { ChatStoreProvider, createChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { ChatScreen } from "../ChatScreen";
import { resetDraftsForTests } from "../composer/drafts";

let saved: ConversationSummary[];

beforeEach(() => {
  localStorage.clear();
  resetDraftsForTests();
  saved = [{ id: "conv-a", title: "Fix the README links", projectRoot: null, updatedAtMs: 1, messageCount: 2 }];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    if (cmd === "chat_list") return { conversations: saved, nextOffset: null };
    if (cmd === "chat_rename") saved = saved.map((c) => (c.id === a.conversationId ? { ...c, title: String(a.title) } : c));
    if (cmd === "chat_history") return [];
    return null;
  });
});

async function ready() {
  render(
    <ChatStoreProvider store={createChatStore()}>
      <ChatScreen onOpenSettings={() => {}} />
    </ChatStoreProvider>,
  );
  await screen.findByTestId(TID.conversationRename);
}

describe("the active conversation's actions", () => {
  it("are named in words, with the conversation's title", async () => {
    await ready();
    expect(screen.getByTestId(TID.conversationRename)).toHaveAccessibleName("Rename conversation Fix the README links");
    const remove = screen.getByTestId(TID.conversationDelete);
    expect(remove).toHaveAccessibleName("Delete conversation Fix the README links");
    await userEvent.click(remove);
    expect(remove).toHaveAccessibleName("Delete conversation Fix the README links? Press again to delete");
  });

  it.each([
    ["Enter", "Renamed{Enter}", "Renamed"],
    ["Esc", "Renamed{Escape}", "Fix the README links"],
  ])("put the caret back in the message field after a rename ends with %s", async (_, keys, title) => {
    await ready();
    await userEvent.click(screen.getByTestId(TID.conversationRename));
    const input = screen.getByTestId(TID.conversationRenameInput);
    await userEvent.clear(input);
    await userEvent.type(input, keys);
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());
    await waitFor(() => expect(screen.getByTestId(TID.conversationItem)).toHaveTextContent(title));
  });
});
