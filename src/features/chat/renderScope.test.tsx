// What a stream event re-renders: only the message and the tool block it is about.
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ChatStoreProvider, createChatStore, type ChatStore } from "../../shared/store/store";
import type { Action } from "../../shared/store/types";
import { TID } from "../../shared/testids";
import { ConversationView } from "./transcript/ConversationView";
import { WINDOW } from "./transcript/useMessageWindow";

const renders = vi.hoisted(() => ({ markdown: [] as string[], status: [] as string[] }));

vi.mock("./transcript/LazyMarkdown", () => ({
  loadMarkdown: () => Promise.resolve(),
  Markdown: ({ text }: { text: string }) => {
    renders.markdown.push(text);
    return <p>{text}</p>;
  },
}));

vi.mock("../tools/StatusIcon", () => ({
  StatusIcon: ({ status }: { status: string }) => {
    renders.status.push(status);
    return <span data-testid="tool-status">{status}</span>;
  },
  statusLabel: (s: string) => s,
}));

const C = "c1";
const ev = (event: string, payload: object) => ({ event, payload: { conversationId: C, ...payload } }) as unknown as Action;
let store: ChatStore;

beforeEach(() => {
  store = createChatStore();
  renders.markdown.length = 0;
  renders.status.length = 0;
  render(
    <ChatStoreProvider store={store}>
      <ConversationView conversationId={C} />
    </ChatStoreProvider>,
  );
});

const dispatch = (...actions: Action[]) => act(() => store.dispatchMany(actions));

describe("render scope", () => {
  it("a delta re-renders the streaming message only, not the finished ones", () => {
    dispatch(
      ev("chat:stream-start", { messageId: "m1", provider: "p", model: "x" }),
      ev("chat:text-delta", { messageId: "m1", delta: "first answer" }),
      ev("chat:stream-end", { messageId: "m1", stopReason: "end_turn" }),
      ev("chat:stream-start", { messageId: "m2", provider: "p", model: "x" }),
      ev("chat:text-delta", { messageId: "m2", delta: "second" }),
    );
    renders.markdown.length = 0;
    dispatch(ev("chat:text-delta", { messageId: "m2", delta: " answer" }));
    expect(renders.markdown).toEqual(["second answer"]);
  });

  it("a tool event re-renders its own block only", () => {
    dispatch(
      ev("chat:stream-start", { messageId: "m1", provider: "p", model: "x" }),
      ...["t1", "t2", "t3"].map((toolId) =>
        ev("chat:tool-start", { messageId: "m1", toolId, toolName: "file_read", input: { path: "a" } }),
      ),
    );
    expect(renders.status).toContain("running");
    renders.status.length = 0;
    renders.markdown.length = 0;
    dispatch(ev("chat:tool-result", { messageId: "m1", toolId: "t2", status: "success", result: "ok" }));
    expect(renders.status).toEqual(["success"]);
    dispatch(ev("chat:tool-start", { messageId: "m1", toolId: "t4", toolName: "file_read", input: { path: "b" } }));
    expect(renders.status).toEqual(["success", "running"]);
  });

  it("mounts only the newest messages of a long conversation, and older ones on request", async () => {
    const total = WINDOW * 2 + 5;
    dispatch(
      ...Array.from(
        { length: total },
        (_, i) => ({ type: "user-send", conversationId: C, messageId: `u${i}`, text: `message ${i}` }) as Action,
      ),
    );
    expect(screen.getByTestId(TID.conversationView)).toHaveAttribute("data-message-count", String(total));
    const mounted = () => screen.getAllByTestId(TID.message);
    expect(mounted()).toHaveLength(WINDOW);
    expect(mounted().at(-1)).toHaveTextContent(`message ${total - 1}`);
    await userEvent.click(screen.getByTestId(TID.messagesEarlier));
    expect(mounted()).toHaveLength(WINDOW * 2);
    await userEvent.click(screen.getByTestId(TID.messagesEarlier));
    expect(mounted()).toHaveLength(total);
    expect(mounted()[0]).toHaveTextContent("message 0");
    expect(screen.queryByTestId(TID.messagesEarlier)).toBeNull();
  });
});
