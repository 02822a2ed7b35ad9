// Warden's long look at the project's files, which checkpoints start from: live from
// `chat:snapshot` above the composer (how many files so far, whether a call waits), gone when it
// is done, and stoppable — after which what that means stays said.
import { act, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectEvents } from "../../shared/store/bridge";
import { createChatStore, type ChatStore } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import { renderConversation } from "../../test/renderConversation";

const C = "conv-look";
let store: ChatStore;
let stop: () => void;
let commands: string[];
let stopArgs: unknown[];

beforeEach(async () => {
  commands = [];
  stopArgs = [];
  mockIPC(
    (cmd, args) => {
      commands.push(cmd);
      if (cmd === "checkpoint_stop_scan") stopArgs.push(args);
      return null;
    },
    { shouldMockEvents: true },
  );
  store = createChatStore();
  stop = await connectEvents(store, (flush) => flush());
});
afterEach(() => stop());

const progress = (files: number, extra: Record<string, unknown> = {}) =>
  emit("chat:snapshot", { conversationId: C, files, done: false, stopped: false, ...extra });

describe("the first look at the project", () => {
  it("counts the files while it runs, says when a call waits, and goes when done", async () => {
    renderConversation(store, { conversationId: C });
    expect(screen.queryByTestId(TID.firstLook)).toBeNull();

    await act(() => progress(12345));
    expect(screen.getByTestId(TID.firstLook)).toHaveTextContent(/Looking at the project's files for checkpoints: 12,345 so far\./);
    expect(screen.getByTestId(TID.firstLook)).not.toHaveTextContent("waits");

    // A call that changes files starts, and waits for its checkpoint: its block says so too.
    await act(() => emit("chat:stream-start", { conversationId: C, messageId: "m1", provider: "anthropic", model: "claude-test", contextWindow: null }));
    await act(() => emit("chat:tool-start", { conversationId: C, messageId: "m1", toolId: "t1", toolName: "bash", category: "exec", input: { command: "make" } }));
    expect(screen.queryByTestId(TID.firstLookWaiting)).toBeNull();
    await act(() => progress(20000, { waitingToolId: "t1" }));
    expect(screen.getByTestId(TID.firstLook)).toHaveTextContent("20,000 so far");
    expect(screen.getByTestId(TID.firstLook)).toHaveTextContent("A call that changes files waits for it");
    const block = screen.getByTestId(TID.toolBlock);
    expect(block).toHaveAttribute("data-tool-id", "t1");
    expect(block).toContainElement(screen.getByTestId(TID.firstLookWaiting));
    expect(screen.getByTestId(TID.firstLookWaiting)).toHaveTextContent("Waits for its checkpoint");

    await act(() => emit("chat:snapshot", { conversationId: C, files: 41000, done: true, stopped: false, waitingToolId: "t1" }));
    expect(screen.queryByTestId(TID.firstLook)).toBeNull();
    expect(screen.queryByTestId(TID.firstLookWaiting)).toBeNull();
  });

  it("stops on request, and then says checkpoints are off until the project is opened again", async () => {
    renderConversation(store, { conversationId: C });
    await act(() => progress(500));
    await userEvent.click(screen.getByTestId(TID.firstLookStop));
    expect(commands).toContain("checkpoint_stop_scan");
    expect(stopArgs).toEqual([{ conversationId: C }]);
    expect(screen.getByTestId(TID.firstLookStop)).toBeDisabled();

    await act(() => emit("chat:snapshot", { conversationId: C, files: 800, done: true, stopped: true }));
    const said = screen.getByTestId(TID.firstLook);
    expect(said).toHaveAttribute("data-state", "stopped");
    expect(said).toHaveTextContent("Checkpoints are off in this project.");
    expect(said).toHaveTextContent("after 800");
    expect(screen.queryByTestId(TID.firstLookStop)).toBeNull();
  });
});
