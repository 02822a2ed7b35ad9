import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ConversationSummary, HistoryMessage } from "../../shared/ipc";
import { ChatStoreProvider, createChatStore, type ChatStore } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import { ChatScreen } from "./ChatScreen";
import { resetDraftsForTests } from "./composer/drafts";

const HISTORY: HistoryMessage[] = [
  { role: "user", content: [{ type: "text", text: "What is in README?" }] },
  { role: "assistant", content: [{ type: "text", text: "A **title**." }] },
];

function summary(id: string, title: string): ConversationSummary {
  return { id, title, projectRoot: null, updatedAtMs: 1, messageCount: 2 };
}

/**
 * What the engine has saved: `chat_list` answers it, rename and delete change it. A delete moves a
 * conversation to `trash`, where `chat_restore` finds it (until `purged`).
 */
let saved: ConversationSummary[];
let trash: ConversationSummary[];
let purged: boolean;
/** When set, `chat_delete` answers only once it settles (a slow engine). */
let deleteAnswered: Promise<void> | null;
let calls: { cmd: string; args: Record<string, unknown> }[];
beforeEach(() => {
  localStorage.clear();
  resetDraftsForTests();
  saved = [];
  trash = [];
  purged = false;
  deleteAnswered = null;
  calls = [];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    switch (cmd) {
      case "chat_history":
        return a.conversationId === "conv-old" ? HISTORY : [];
      case "chat_list":
        return { conversations: saved, nextOffset: null };
      case "chat_rename":
        saved = saved.map((c) => (c.id === a.conversationId ? { ...c, title: String(a.title) } : c));
        return null;
      case "chat_delete": {
        if (a.conversationId === "conv-busy") throw { code: "INVALID_INPUT", message: "This conversation is still answering." };
        const done = () => {
          trash = [...trash, ...saved.filter((c) => c.id === a.conversationId)];
          saved = saved.filter((c) => c.id !== a.conversationId);
          return null;
        };
        return deleteAnswered ? deleteAnswered.then(done) : done();
      }
      case "chat_restore": {
        const back = trash.find((c) => c.id === a.conversationId);
        if (!back || purged) throw { code: "INVALID_INPUT", message: `there is no saved conversation \`${String(a.conversationId)}\`` };
        trash = trash.filter((c) => c !== back);
        saved = [...saved, back].sort((x, y) => x.id.localeCompare(y.id));
        return null;
      }
      default:
        return null;
    }
  });
});

function renderScreen(store: ChatStore = createChatStore()) {
  return render(
    <ChatStoreProvider store={store}>
      <ChatScreen onOpenSettings={() => {}} />
    </ChatStoreProvider>,
  );
}

const items = () => screen.getAllByTestId(TID.conversationItem);
const titles = () => items().map((i) => i.textContent);
const listCalls = () => calls.filter((c) => c.cmd === "chat_list").length;
const restoreCalls = () => calls.filter((c) => c.cmd === "chat_restore").map((c) => c.args.conversationId);

/** Deletes the active conversation as the user does: the × and then "Delete?". */
async function deleteActive() {
  await userEvent.click(screen.getByTestId(TID.conversationDelete));
  await userEvent.click(screen.getByTestId(TID.conversationDelete));
}

afterEach(() => {
  vi.useRealTimers();
});

describe("ChatScreen", () => {
  it("reopens the newest saved conversation with its history", async () => {
    saved = [summary("conv-old", "README"), summary("conv-older", "Older")];
    renderScreen();
    await waitFor(() => expect(screen.getAllByTestId(TID.message)).toHaveLength(2));
    expect(calls).toContainEqual({ cmd: "chat_list", args: { offset: 0, limit: 200 } });
    expect(calls).toContainEqual({ cmd: "chat_history", args: { conversationId: "conv-old" } });
    expect(titles()).toEqual(["README", "Older"]);
    expect(items()[0]).toHaveAttribute("aria-current", "page");
    expect(within(screen.getAllByTestId(TID.message)[1]!).getByText("title").tagName).toBe("STRONG");
  });

  it("lists what chat_list returns, whatever localStorage held, and drops the old list", async () => {
    localStorage.setItem("warden.conversations", JSON.stringify([{ id: "conv-gone", title: "Only here", createdAt: 1 }]));
    saved = [summary("conv-a", "Kept by the engine")];
    const first = renderScreen();
    await waitFor(() => expect(titles()).toEqual(["Kept by the engine"]));
    expect(localStorage.getItem("warden.conversations")).toBeNull();
    first.unmount();

    // The browser storage is cleared: the list is still the engine's.
    localStorage.clear();
    renderScreen();
    await waitFor(() => expect(titles()).toEqual(["Kept by the engine"]));
  });

  it("starts a new conversation, titles it from the first message and keeps nothing in localStorage", async () => {
    saved = [summary("conv-a", "First")];
    renderScreen();
    await waitFor(() => expect(titles()).toEqual(["First"]));
    await userEvent.click(screen.getByTestId(TID.conversationNew));
    expect(items()).toHaveLength(2);
    const id = items()[0]!.getAttribute("data-conversation-id")!;
    expect(items()[0]).toHaveAttribute("aria-current", "page");
    await userEvent.type(screen.getByTestId(TID.composerInput), "Fix the failing test in src/lib.rs{Enter}");
    expect(calls).toContainEqual({ cmd: "chat_send", args: { conversationId: id, content: "Fix the failing test in src/lib.rs", images: null, plan: null, approvedPlan: null } });
    expect(items()[0]).toHaveTextContent("Fix the failing test in src/lib.rs");
    expect(localStorage.length).toBe(0);
  });

  it("asks for the list again when a turn ends, and shows the saved conversation", async () => {
    const store = createChatStore();
    renderScreen(store);
    await waitFor(() => expect(items()).toHaveLength(1));
    const id = items()[0]!.getAttribute("data-conversation-id")!;
    await userEvent.type(screen.getByTestId(TID.composerInput), "Hello{Enter}");
    const before = listCalls();
    saved = [summary(id, "Hello (saved)")];
    act(() => {
      store.dispatch({
        event: "chat:stream-end",
        payload: { conversationId: id, messageId: "m1", stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 }, partial: false },
      });
    });
    await waitFor(() => expect(titles()).toEqual(["Hello (saved)"]));
    expect(listCalls()).toBeGreaterThan(before);
  });

  it("asks once more when the ended conversation is not listed yet (saved just after the event)", async () => {
    const store = createChatStore();
    renderScreen(store);
    await waitFor(() => expect(items()).toHaveLength(1));
    const id = items()[0]!.getAttribute("data-conversation-id")!;
    await userEvent.type(screen.getByTestId(TID.composerInput), "Hello{Enter}");
    const before = listCalls();
    act(() => {
      store.dispatch({
        event: "chat:stream-end",
        payload: { conversationId: id, messageId: "m1", stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 }, partial: false },
      });
    });
    await waitFor(() => expect(listCalls()).toBe(before + 1));
    saved = [summary(id, "Hello (saved)")];
    await waitFor(() => expect(titles()).toEqual(["Hello (saved)"]), { timeout: 3000 });
    expect(listCalls()).toBe(before + 2);
  });

  it("Ctrl+N starts a new conversation, ready to type into", async () => {
    saved = [summary("conv-a", "First")];
    renderScreen();
    await waitFor(() => expect(titles()).toEqual(["First"]));
    await userEvent.keyboard("{Control>}n{/Control}");
    expect(items()).toHaveLength(2);
    expect(items()[0]).toHaveAttribute("aria-current", "page");
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());
  });

  it("New with an empty conversation at hand opens that one instead of adding another", async () => {
    saved = [summary("conv-a", "First")];
    renderScreen();
    await waitFor(() => expect(titles()).toEqual(["First"]));
    await userEvent.click(screen.getByTestId(TID.conversationNew));
    const fresh = items()[0]!.getAttribute("data-conversation-id");
    await userEvent.click(items()[1]!);
    await userEvent.click(screen.getByTestId(TID.conversationNew));
    await userEvent.keyboard("{Control>}n{/Control}");
    expect(items()).toHaveLength(2);
    expect(items()[0]).toHaveAttribute("data-conversation-id", fresh);
    expect(items()[0]).toHaveAttribute("aria-current", "page");
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());

    // Once written in, it is no longer empty: New makes another.
    await userEvent.type(screen.getByTestId(TID.composerInput), "Hello{Enter}");
    await userEvent.click(screen.getByTestId(TID.conversationNew));
    expect(items()).toHaveLength(3);
  });

  it("keeps what was typed with its conversation, across switching and a restart", async () => {
    saved = [summary("conv-a", "First"), summary("conv-b", "Second")];
    const first = renderScreen();
    await waitFor(() => expect(titles()).toEqual(["First", "Second"]));
    await userEvent.type(screen.getByTestId(TID.composerInput), "half a thought");
    await userEvent.click(items()[1]!);
    expect(screen.getByTestId(TID.composerInput)).toHaveValue("");
    await userEvent.type(screen.getByTestId(TID.composerInput), "another");
    await userEvent.click(items()[0]!);
    expect(screen.getByTestId(TID.composerInput)).toHaveValue("half a thought");
    first.unmount();

    resetDraftsForTests();
    renderScreen();
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveValue("half a thought"));
    await userEvent.click(items()[1]!);
    expect(screen.getByTestId(TID.composerInput)).toHaveValue("another");
    // Sent, a draft is gone.
    await userEvent.type(screen.getByTestId(TID.composerInput), "{Enter}");
    expect(screen.getByTestId(TID.composerInput)).toHaveValue("");
    await userEvent.click(items()[0]!);
    await userEvent.clear(screen.getByTestId(TID.composerInput));
    expect(localStorage.getItem("warden.drafts")).toBeNull();
  });

  it("folds the conversation list away and back (button and Ctrl+B), and remembers it", async () => {
    saved = [summary("conv-a", "First")];
    const first = renderScreen();
    await waitFor(() => expect(titles()).toEqual(["First"]));
    await userEvent.click(screen.getByTestId(TID.sidebarToggle));
    expect(screen.queryByTestId(TID.conversationList)).toBeNull();
    first.unmount();

    renderScreen();
    await waitFor(() => expect(screen.getByTestId(TID.sidebarToggle)).toHaveAccessibleName("Show the conversation list"));
    expect(screen.queryByTestId(TID.conversationList)).toBeNull();
    await userEvent.keyboard("{Control>}b{/Control}");
    expect(screen.getByTestId(TID.conversationList)).toBeInTheDocument();
    expect(titles()).toEqual(["First"]);
  });

  it("Ctrl+K opens a folded list and puts the caret in the conversation search", async () => {
    saved = [summary("conv-a", "First")];
    renderScreen();
    await waitFor(() => expect(titles()).toEqual(["First"]));
    await userEvent.click(screen.getByTestId(TID.sidebarToggle));
    expect(screen.queryByTestId(TID.conversationSearch)).toBeNull();
    await userEvent.keyboard("{Control>}k{/Control}");
    await waitFor(() => expect(screen.getByTestId(TID.conversationSearch)).toHaveFocus());
    expect(screen.getByTestId(TID.conversationList)).toBeInTheDocument();
  });

  it("renames and deletes through the engine", async () => {
    saved = [summary("conv-a", "First"), summary("conv-b", "Second")];
    renderScreen();
    await waitFor(() => expect(titles()).toEqual(["First", "Second"]));

    await userEvent.click(screen.getByTestId(TID.conversationRename));
    const input = screen.getByTestId(TID.conversationRenameInput);
    await userEvent.clear(input);
    await userEvent.type(input, "Renamed{Enter}");
    expect(calls).toContainEqual({ cmd: "chat_rename", args: { conversationId: "conv-a", title: "Renamed" } });
    await waitFor(() => expect(titles()).toEqual(["Renamed", "Second"]));
    // The caret goes back to the message field (a frame later) before anything else is pressed.
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());

    await userEvent.click(screen.getByTestId(TID.conversationDelete));
    expect(calls.some((c) => c.cmd === "chat_delete")).toBe(false);
    await userEvent.click(screen.getByTestId(TID.conversationDelete));
    expect(calls).toContainEqual({ cmd: "chat_delete", args: { conversationId: "conv-a" } });
    await waitFor(() => expect(titles()).toEqual(["Second"]));
    expect(items()[0]).toHaveAttribute("aria-current", "page");
  });

  it("shows why a delete was refused and keeps the conversation", async () => {
    saved = [summary("conv-busy", "Busy")];
    renderScreen();
    await waitFor(() => expect(titles()).toEqual(["Busy"]));
    await userEvent.click(screen.getByTestId(TID.conversationDelete));
    await userEvent.click(screen.getByTestId(TID.conversationDelete));
    expect(await screen.findByTestId(TID.conversationError)).toHaveTextContent("still answering");
    expect(titles()).toEqual(["Busy"]);
  });

  it("takes a deleted conversation off the list at once and offers Undo, which brings it back", async () => {
    saved = [summary("conv-a", "First"), summary("conv-b", "Second")];
    renderScreen();
    await waitFor(() => expect(titles()).toEqual(["First", "Second"]));

    await deleteActive();
    expect(titles()).toEqual(["Second"]);
    expect(items()[0]).toHaveAttribute("aria-current", "page");
    const notice = await screen.findByTestId(TID.conversationDeleted);
    expect(notice).toHaveTextContent("Conversation deleted — Undo");

    await userEvent.click(within(notice).getByTestId(TID.conversationUndo));
    expect(restoreCalls()).toEqual(["conv-a"]);
    await waitFor(() => expect(titles()).toEqual(["First", "Second"]));
    expect(screen.queryByTestId(TID.conversationDeleted)).toBeNull();
  });

  it("takes the row away before the engine answers the delete", async () => {
    let answer!: () => void;
    deleteAnswered = new Promise((resolve) => {
      answer = resolve;
    });
    saved = [summary("conv-a", "First"), summary("conv-b", "Second")];
    renderScreen();
    await waitFor(() => expect(titles()).toEqual(["First", "Second"]));

    await deleteActive();
    expect(titles()).toEqual(["Second"]);
    // Undo is offered once the engine has it deleted.
    expect(screen.queryByTestId(TID.conversationDeleted)).toBeNull();
    await act(async () => answer());
    expect(await screen.findByTestId(TID.conversationDeleted)).toHaveTextContent("Conversation deleted — Undo");
    expect(titles()).toEqual(["Second"]);
  });

  it("offers Undo for the last of several deletes only", async () => {
    saved = [summary("conv-a", "First"), summary("conv-b", "Second"), summary("conv-c", "Third")];
    renderScreen();
    await waitFor(() => expect(titles()).toEqual(["First", "Second", "Third"]));

    await deleteActive();
    await waitFor(() => expect(titles()).toEqual(["Second", "Third"]));
    await deleteActive();
    await waitFor(() => expect(titles()).toEqual(["Third"]));
    expect(screen.getAllByTestId(TID.conversationDeleted)).toHaveLength(1);

    await userEvent.click(screen.getByTestId(TID.conversationUndo));
    await waitFor(() => expect(titles()).toEqual(["Second", "Third"]));
    expect(restoreCalls()).toEqual(["conv-b"]);
  });

  it("says so when Undo comes too late for the engine", async () => {
    saved = [summary("conv-a", "First"), summary("conv-b", "Second")];
    renderScreen();
    await waitFor(() => expect(titles()).toEqual(["First", "Second"]));
    await deleteActive();
    purged = true;
    await userEvent.click(await screen.findByTestId(TID.conversationUndo));
    expect(await screen.findByText("“First” could not be brought back: it is deleted for good.")).toBeInTheDocument();
    expect(titles()).toEqual(["Second"]);
  });

  it("takes the Undo away a few seconds after the pointer leaves it", async () => {
    saved = [summary("conv-a", "First"), summary("conv-b", "Second")];
    renderScreen();
    await waitFor(() => expect(titles()).toEqual(["First", "Second"]));
    await deleteActive();
    const notice = await screen.findByTestId(TID.conversationDeleted);

    vi.useFakeTimers();
    // Held while the pointer is on it, however long.
    fireEvent.pointerEnter(notice);
    act(() => {
      vi.advanceTimersByTime(30_000);
    });
    expect(screen.getByTestId(TID.conversationDeleted)).toBeInTheDocument();

    fireEvent.pointerLeave(notice);
    act(() => {
      vi.advanceTimersByTime(7_000);
    });
    expect(screen.getByTestId(TID.conversationDeleted)).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1_500);
    });
    expect(screen.queryByTestId(TID.conversationDeleted)).toBeNull();
    expect(titles()).toEqual(["Second"]);
  });

  it("asks for the list again when the window comes back, showing what a terminal saved meanwhile", async () => {
    saved = [summary("conv-a", "First")];
    renderScreen();
    await waitFor(() => expect(titles()).toEqual(["First"]));
    const before = listCalls();

    saved = [summary("conv-exec", "Saved by warden exec"), summary("conv-a", "First")];
    act(() => {
      window.dispatchEvent(new Event("focus"));
    });
    await waitFor(() => expect(titles()).toEqual(["Saved by warden exec", "First"]));
    expect(listCalls()).toBe(before + 1);
  });
});
