// The model's task list above the composer: live from `chat:todo`, whole each time; folded to one
// line once every task is done (or when the user folds it); and back after a restart, from the
// last `todo_write` result in the saved history.
import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HistoryMessage, TodoItem } from "../../shared/ipc";
import { connectEvents } from "../../shared/store/bridge";
import { createChatStore, type ChatStore } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import { renderConversation } from "../../test/renderConversation";

const C = "conv-todo";
let store: ChatStore;
let stop: () => void;

beforeEach(async () => {
  mockIPC(() => null, { shouldMockEvents: true });
  store = createChatStore();
  stop = await connectEvents(store, (flush) => flush());
});
afterEach(() => stop());

const list = (...states: TodoItem["state"][]): TodoItem[] =>
  states.map((state, i) => ({ id: String(i + 1), text: `Task ${i + 1}`, state }));

/** Each task as read out: its mark's words, its text, and its state. */
const shown = () =>
  screen
    .getAllByTestId(TID.todoItem)
    .map((li) => [within(li).getByRole("img").getAttribute("aria-label"), li.textContent?.slice(1), li.getAttribute("data-state")]);

describe("the task list", () => {
  it("shows the list as each call leaves it, and folds to one line once all is done", async () => {
    renderConversation(store, { conversationId: C });
    expect(screen.queryByTestId(TID.todoPanel)).toBeNull();

    await act(() => emit("chat:todo", { conversationId: C, items: list("in_progress", "pending", "pending") }));
    const panel = screen.getByTestId(TID.todoPanel);
    expect(panel).toHaveTextContent("Tasks · 0 of 3 done");
    expect(shown()).toEqual([
      ["under way", "Task 1", "in_progress"],
      ["to do", "Task 2", "pending"],
      ["to do", "Task 3", "pending"],
    ]);

    await act(() => emit("chat:todo", { conversationId: C, items: list("done", "in_progress", "pending") }));
    expect(panel).toHaveTextContent("Tasks · 1 of 3 done");
    // Folded by the user: one line naming what is under way; open again on a click.
    const head = within(panel).getByRole("button", { expanded: true });
    await userEvent.click(head);
    expect(screen.queryByTestId(TID.todoItem)).toBeNull();
    expect(panel).toHaveTextContent("Tasks · 1 of 3 done — Task 2");
    await userEvent.click(head);
    expect(screen.getAllByTestId(TID.todoItem)).toHaveLength(3);

    await act(() => emit("chat:todo", { conversationId: C, items: list("done", "done", "done") }));
    expect(panel).toHaveTextContent("Tasks · 3 of 3 done");
    // Another conversation's list is not this one's.
    await act(() => emit("chat:todo", { conversationId: "other", items: list("pending") }));
    expect(panel).toHaveTextContent("Tasks · 3 of 3 done");
  });

  it("comes back with a reopened conversation, from its last todo_write", () => {
    const call = (id: string): HistoryMessage => ({
      role: "assistant",
      content: [{ type: "tool_use", id, name: "todo_write", input: {} }],
    });
    const result = (id: string, items: TodoItem[]): HistoryMessage => ({
      role: "user",
      content: [{ type: "tool_result", toolUseId: id, content: "saved", isError: false, report: { todo: items } }],
    });
    const history: HistoryMessage[] = [
      { role: "user", content: [{ type: "text", text: "Plan it" }] },
      call("t1"),
      result("t1", list("in_progress", "pending")),
      call("t2"),
      result("t2", list("done", "in_progress")),
    ];
    store.dispatch({ type: "history-loaded", conversationId: C, history });
    renderConversation(store, { conversationId: C });
    expect(screen.getByTestId(TID.todoPanel)).toHaveTextContent("Tasks · 1 of 2 done");
    expect(shown().map(([, , state]) => state)).toEqual(["done", "in_progress"]);
  });
});
