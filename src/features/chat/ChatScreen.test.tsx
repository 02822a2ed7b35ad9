import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { HistoryMessage } from "../../shared/ipc";
import { ChatStoreProvider, createChatStore } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import { ChatScreen } from "./ChatScreen";

const HISTORY: HistoryMessage[] = [
  { role: "user", content: [{ type: "text", text: "What is in README?" }] },
  { role: "assistant", content: [{ type: "text", text: "A **title**." }] },
];

let calls: { cmd: string; args: Record<string, unknown> }[];
beforeEach(() => {
  localStorage.clear();
  calls = [];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    if (cmd === "chat_history") return a.conversationId === "conv-old" ? HISTORY : [];
    return null;
  });
});

function renderScreen() {
  return render(
    <ChatStoreProvider store={createChatStore()}>
      <ChatScreen onOpenSettings={() => {}} />
    </ChatStoreProvider>,
  );
}

describe("ChatScreen", () => {
  it("reopens a stored conversation with its history", async () => {
    localStorage.setItem("warden.conversations", JSON.stringify([{ id: "conv-old", title: "README", createdAt: 1 }]));
    renderScreen();
    await waitFor(() => expect(screen.getAllByTestId(TID.message)).toHaveLength(2));
    expect(calls).toContainEqual({ cmd: "chat_history", args: { conversationId: "conv-old" } });
    expect(within(screen.getAllByTestId(TID.message)[1]!).getByText("title").tagName).toBe("STRONG");
  });

  it("starts a new conversation, titles it from the first message and remembers it", async () => {
    renderScreen();
    await userEvent.click(screen.getByTestId(TID.conversationNew));
    const items = screen.getAllByTestId(TID.conversationItem);
    expect(items).toHaveLength(2);
    const id = items[0]!.getAttribute("data-conversation-id")!;
    expect(items[0]).toHaveAttribute("aria-current", "page");
    await userEvent.type(screen.getByTestId(TID.composerInput), "Fix the failing test in src/lib.rs{Enter}");
    expect(calls).toContainEqual({ cmd: "chat_send", args: { conversationId: id, content: "Fix the failing test in src/lib.rs" } });
    expect(screen.getAllByTestId(TID.conversationItem)[0]).toHaveTextContent("Fix the failing test in src/lib.rs");
    const stored = JSON.parse(localStorage.getItem("warden.conversations") ?? "[]") as { id: string; title: string }[];
    expect(stored[0]).toMatchObject({ id, title: "Fix the failing test in src/lib.rs" });
  });
});
