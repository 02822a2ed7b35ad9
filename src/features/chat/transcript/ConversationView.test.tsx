import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectEvents } from "../../../shared/store/bridge";
import { createChatStore, type ChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { renderConversation } from "../../../test/renderConversation";
import { ApprovalHost } from "../../approvals/ApprovalHost";

const C = "conv-1";
let calls: { cmd: string; args: unknown }[];
let store: ChatStore;
let stop: () => void;

beforeEach(async () => {
  calls = [];
  mockIPC(
    (cmd, args) => {
      calls.push({ cmd, args });
      return null;
    },
    { shouldMockEvents: true },
  );
  store = createChatStore();
  // Fold each event at once: the test asserts on state, not on frame timing.
  stop = await connectEvents(store, (flush) => flush());
});
afterEach(() => stop());

function renderView(onOpenSettings = () => {}) {
  return renderConversation(store, {
    conversationId: C,
    onOpenSettings,
    aboveComposer: <ApprovalHost activeConversationId={C} onOpenConversation={() => {}} />,
  });
}

const base = { conversationId: C, messageId: "m1" };
const send = (event: string, payload: object) => act(() => emit(event, { ...base, ...payload }));

describe("ConversationView", () => {
  it("asks the engine for the session's grants when shown and once each turn ends, not when it starts", async () => {
    renderView();
    const asked = () => calls.filter((c) => c.cmd === "chat_grants").length;
    await waitFor(() => expect(asked()).toBe(1));
    await userEvent.type(screen.getByTestId(TID.composerInput), "Run the tests{Enter}");
    await send("chat:stream-start", { provider: "anthropic", model: "claude-sonnet-4-5" });
    await send("chat:stream-end", { stopReason: "tool_use", usage: { inputTokens: 1, outputTokens: 1 }, partial: false });
    await send("chat:stream-start", { messageId: "m2", provider: "anthropic", model: "claude-sonnet-4-5" });
    expect(asked()).toBe(1);
    await send("chat:stream-end", { messageId: "m2", stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 }, partial: false });
    await waitFor(() => expect(asked()).toBe(2));
    await userEvent.type(screen.getByTestId(TID.composerInput), "Again{Enter}");
    await send("chat:stream-start", { messageId: "m3", provider: "anthropic", model: "claude-sonnet-4-5" });
    await send("chat:stream-end", { messageId: "m3", stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 }, partial: false });
    await waitFor(() => expect(asked()).toBe(3));
  });

  it("shows under each message when it was written, which model answered, and copies its text", async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator, "clipboard", {
      configurable: true,
      value: { writeText: (text: string) => (copied.push(text), Promise.resolve()) },
    });
    renderView();
    await userEvent.type(screen.getByTestId(TID.composerInput), "Explain main.rs{Enter}");
    await send("chat:stream-start", { provider: "anthropic", model: "claude-sonnet-4-5" });
    await send("chat:text-delta", { delta: "It starts the **runtime**." });
    await send("chat:thinking-delta", { delta: "not part of the answer" });
    await send("chat:text-delta", { delta: "Then it parses the arguments." });
    // While it streams, nothing to copy yet.
    const [question, answer] = screen.getAllByTestId(TID.message);
    expect(within(answer!).queryByTestId(TID.messageMeta)).toBeNull();
    await send("chat:stream-end", { stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 }, partial: false });

    const meta = within(answer!).getByTestId(TID.messageMeta);
    expect(meta).toHaveTextContent("claude-sonnet-4-5");
    expect(meta.querySelector("time")?.getAttribute("datetime")).toMatch(/^\d{4}-\d\d-\d\dT/);
    await userEvent.click(within(meta).getByTestId(TID.messageCopy));
    expect(copied).toEqual(["It starts the **runtime**.\n\nThen it parses the arguments."]);
    expect(within(meta).getByTestId(TID.messageCopy)).toHaveTextContent("Copied ✓");

    const asked = within(question!).getByTestId(TID.messageMeta);
    expect(asked.querySelector("time")).not.toBeNull();
    await userEvent.click(within(asked).getByTestId(TID.messageCopy));
    expect(copied[1]).toBe("Explain main.rs");
  });

  it("shows a notice about how the message is produced, calmly, above its text", async () => {
    renderView();
    await send("chat:stream-start", { provider: "ollama", model: "gemma:2b" });
    await send("chat:notice", { text: "This model has no native tool calling; Warden describes the tools in the prompt instead." });
    await send("chat:text-delta", { delta: "Let me look." });
    const msg = screen.getByTestId(TID.message);
    const note = within(msg).getByRole("note");
    expect(note).toHaveTextContent("This model has no native tool calling; Warden describes the tools in the prompt instead.");
    expect(note).toHaveClass("muted", "small");
    // Not an error: nothing alarming is shown, and it comes before the answer.
    expect(within(msg).queryByRole("alert")).toBeNull();
    expect(note.compareDocumentPosition(screen.getByTestId(TID.messageText)) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("sends with Enter, keeps Shift+Enter as a newline, and shows the user message", async () => {
    renderView();
    const input = screen.getByTestId(TID.composerInput);
    await userEvent.type(input, "first line{Shift>}{Enter}{/Shift}second{Enter}");
    expect(calls).toContainEqual({ cmd: "chat_send", args: { conversationId: C, content: "first line\nsecond", images: null, plan: null, approvedPlan: null } });
    expect(input).toHaveValue("");
    const msg = screen.getAllByTestId(TID.message)[0]!;
    expect(msg).toHaveAttribute("data-role", "user");
    expect(msg).toHaveTextContent("first line second");
    // The turn is running: Stop replaces Send and calls chat_cancel.
    await userEvent.click(screen.getByTestId(TID.stop));
    expect(calls).toContainEqual({ cmd: "chat_cancel", args: { conversationId: C } });
  });

  it("a send refused for a missing key says so and offers Settings", async () => {
    mockIPC(
      (cmd, args) => {
        calls.push({ cmd, args });
        if (cmd === "chat_send") throw { code: "MISSING_CREDENTIALS", message: "No Anthropic API key is set." };
        return null;
      },
      { shouldMockEvents: true },
    );
    let opened = 0;
    renderView(() => (opened += 1));
    await userEvent.type(screen.getByTestId(TID.composerInput), "hello{Enter}");
    const error = await screen.findByTestId(TID.chatError);
    expect(error).toHaveAttribute("data-code", "MISSING_CREDENTIALS");
    expect(error).toHaveTextContent("No Anthropic API key is set.");
    await userEvent.click(within(error).getByTestId(TID.chatErrorAction));
    expect(opened).toBe(1);
  });

  it("is ready to type into when shown, and Esc stops a running answer", async () => {
    renderView();
    expect(screen.getByTestId(TID.composerInput)).toHaveFocus();
    await send("chat:stream-start", { provider: "anthropic", model: "claude-sonnet-4-5" });
    await userEvent.keyboard("{Escape}");
    expect(calls).toContainEqual({ cmd: "chat_cancel", args: { conversationId: C } });
  });

  it("Esc on an approval card rejects it and stops nothing; the caret then returns to the message field", async () => {
    renderView();
    await send("chat:stream-start", { provider: "anthropic", model: "claude-sonnet-4-5" });
    await send("chat:tool-confirm", {
      confirmId: "q1",
      toolId: "t1",
      toolName: "file_write",
      input: { path: "a.txt", content: "x" },
      dangerLevel: "dangerous",
      timeoutSecs: 30,
    });
    expect(screen.getByTestId(TID.approvalDialog)).toHaveFocus();
    await userEvent.keyboard("{Escape}");
    expect(calls).toContainEqual({
      cmd: "chat_tool_approve",
      args: { conversationId: C, confirmId: "q1", approved: false, reason: null, remember: null, always: null },
    });
    expect(calls.some((c) => c.cmd === "chat_cancel")).toBe(false);
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());
  });

  it("Stop returns the caret to the message field", async () => {
    renderView();
    await send("chat:stream-start", { provider: "anthropic", model: "claude-sonnet-4-5" });
    await userEvent.click(screen.getByTestId(TID.stop));
    expect(screen.getByTestId(TID.composerInput)).toHaveFocus();
  });

  it("while scrolled up, new text offers a way down instead of pulling; sending goes back down", async () => {
    renderView();
    await send("chat:stream-start", { provider: "anthropic", model: "claude-sonnet-4-5" });
    await send("chat:text-delta", { delta: "first part" });
    expect(screen.queryByTestId(TID.newMessages)).toBeNull();
    // The user scrolls up: 600 px of content, 200 px visible, at the top.
    const messages = document.querySelector<HTMLElement>(".messages")!;
    Object.defineProperty(messages, "scrollHeight", { configurable: true, value: 600 });
    Object.defineProperty(messages, "clientHeight", { configurable: true, value: 200 });
    messages.scrollTop = 300;
    messages.dispatchEvent(new Event("scroll"));
    await send("chat:text-delta", { delta: " and more" });
    expect(messages.scrollTop).toBe(300);
    await userEvent.click(screen.getByTestId(TID.newMessages));
    expect(screen.queryByTestId(TID.newMessages)).toBeNull();
    expect(messages.scrollTop).toBe(600);

    // Scrolled up again, the user sends: the view goes to the reply, and no button stays.
    await send("chat:stream-end", { stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 } });
    messages.scrollTop = 100;
    messages.dispatchEvent(new Event("scroll"));
    await userEvent.type(screen.getByTestId(TID.composerInput), "next{Enter}");
    expect(screen.queryByTestId(TID.newMessages)).toBeNull();
    expect(messages.scrollTop).toBe(600);
  });

  it("offers Retry after a failed turn and Regenerate after an answer; both send the last message again", async () => {
    mockIPC(
      (cmd, args) => {
        calls.push({ cmd, args });
        if (cmd === "chat_history") return [];
        if (cmd === "chat_rewind") return "fix the test";
        return null;
      },
      { shouldMockEvents: true },
    );
    // A new IPC mock has new event listeners: listen again.
    stop();
    stop = await connectEvents(store, (flush) => flush());
    renderView();
    await userEvent.type(screen.getByTestId(TID.composerInput), "fix the test{Enter}");
    await send("chat:stream-start", { provider: "anthropic", model: "claude-sonnet-4-5" });
    await send("chat:error", { code: "AUTH_FAILED", message: "The key was refused.", retryable: false });
    await send("chat:stream-end", { stopReason: "error", usage: { inputTokens: 0, outputTokens: 0 } });
    const retry = await screen.findByTestId(TID.retryLast);
    expect(retry).toHaveTextContent("Retry");
    calls.length = 0;
    await userEvent.click(retry);
    await waitFor(() => expect(calls.map((c) => c.cmd)).toContain("chat_send"));
    const made = calls.filter((c) => c.cmd !== "chat_grants");
    // Taken back, shown as the engine has it (with each message's time, and each call's changes),
    // sent again; where it is compacted now follows.
    expect(made.map((c) => c.cmd)).toEqual(["chat_rewind", "chat_history", "chat_message_stamps", "chat_send", "chat_compaction"]);
    expect(made[0]!.args).toEqual({ conversationId: C, userMessageIndex: 0 });
    expect(made[3]!.args).toEqual({ conversationId: C, content: "fix the test", images: null, plan: null, approvedPlan: null });
    expect(screen.queryByTestId(TID.rewindNotice)).toBeNull();
    // The resent message streams its answer: then the same place offers Regenerate.
    await send("chat:stream-start", { messageId: "m2", provider: "anthropic", model: "claude-sonnet-4-5" });
    expect(screen.queryByTestId(TID.retryLast)).toBeNull();
    await send("chat:text-delta", { messageId: "m2", delta: "Fixed." });
    await send("chat:stream-end", { messageId: "m2", stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 1 } });
    expect(await screen.findByTestId(TID.retryLast)).toHaveTextContent("Regenerate");
  });

  it("streams markdown text, collapsible thinking and tool blocks in order", async () => {
    renderView();
    await send("chat:stream-start", { provider: "anthropic", model: "claude-sonnet-4-5" });
    await send("chat:thinking-delta", { delta: "I should list files." });
    expect(screen.getByTestId(TID.thinkingBlock)).toHaveTextContent("Thinking…");
    await send("chat:text-delta", { delta: "Here is **bold** and `code`:\n\n```rust\nfn main() {}\n```\n" });
    await send("chat:tool-start", { toolId: "t1", toolName: "list_dir", input: { path: "." } });
    await send("chat:tool-delta", { toolId: "t1", chunk: "src/\n" });

    const text = screen.getByTestId(TID.messageText);
    expect(within(text).getByText("bold").tagName).toBe("STRONG");
    expect(text.querySelector("pre code.language-rust .hljs-keyword")).toHaveTextContent("fn");
    // Text followed, so the thinking is over; it stays collapsed until asked.
    expect(screen.getByTestId(TID.thinkingBlock)).toHaveTextContent("Thought");
    expect(screen.getByTestId(TID.thinkingBlock)).not.toHaveTextContent("I should list files.");
    await userEvent.click(screen.getByTestId(TID.thinkingToggle));
    expect(screen.getByTestId(TID.thinkingBlock)).toHaveTextContent("I should list files.");

    const block = screen.getByTestId(TID.toolBlock);
    expect(block).toHaveAttribute("data-status", "running");
    const order = Array.from(screen.getByTestId(TID.message).querySelectorAll("[data-testid]"))
      .map((e) => e.getAttribute("data-testid"))
      .filter((t) => t === TID.thinkingBlock || t === TID.messageText || t === TID.toolBlock);
    expect(order).toEqual([TID.thinkingBlock, TID.messageText, TID.toolBlock]);

    await send("chat:tool-result", { toolId: "t1", status: "success", result: "src/" });
    expect(screen.getByTestId(TID.toolBlock)).toHaveAttribute("data-status", "success");
  });

  it("renders raw HTML in model text as text, and does not make links navigable", async () => {
    renderView();
    await send("chat:text-delta", { delta: 'Hi <img src=x onerror="alert(1)"> <b>x</b> [site](https://example.com)' });
    const text = screen.getByTestId(TID.messageText);
    expect(text.querySelector("img")).toBeNull();
    expect(text.querySelector("b")).toBeNull();
    expect(text.querySelector("a")).toBeNull();
    expect(within(text).getByText("site")).toHaveAttribute("title", "https://example.com");
  });

  it("shows an auth error with an Open settings action", async () => {
    let opened = 0;
    renderView(() => opened++);
    await send("chat:error", { code: "AUTH_FAILED", message: "The Anthropic key was refused.", retryable: false });
    const err = screen.getByTestId(TID.chatError);
    expect(err).toHaveAttribute("data-code", "AUTH_FAILED");
    await userEvent.click(within(err).getByTestId(TID.chatErrorAction));
    expect(opened).toBe(1);
  });

  it("shows a rate limit with the retry countdown", async () => {
    renderView();
    await send("chat:error", { code: "RATE_LIMITED", message: "Too many requests.", retryable: true, retryAfterSecs: 7, retrying: true });
    expect(screen.getByTestId(TID.chatError)).toHaveTextContent("Retrying in 7 s");
    expect(screen.queryByTestId(TID.chatErrorAction)).toBeNull();
  });

  it("shows context used against the window the engine budgets with, and the running cost", async () => {
    renderView();
    await send("chat:stream-start", { provider: "anthropic", model: "claude-sonnet-4-5", contextWindow: 200_000 });
    await send("chat:stream-end", { stopReason: "end_turn", usage: { inputTokens: 100_000, outputTokens: 0 }, partial: false });
    const gauge = screen.getByTestId(TID.contextGauge);
    expect(gauge).toHaveAttribute("data-used", "100000");
    expect(gauge).toHaveAttribute("data-window", "200000");
    expect(gauge).toHaveTextContent("50%");
    expect(screen.getByTestId(TID.costLabel)).toHaveTextContent("$0.30");
  });

  it("shows a local model's window as the engine reports it, and no cost without a known price", async () => {
    renderView();
    await send("chat:stream-start", { provider: "ollama", model: "tiny-local", contextWindow: 4096 });
    await send("chat:stream-end", { stopReason: "end_turn", usage: { inputTokens: 1500, outputTokens: 20 }, partial: false });
    const gauge = screen.getByTestId(TID.contextGauge);
    await waitFor(() => expect(gauge).toHaveAttribute("data-window", "4096"));
    expect(gauge).toHaveTextContent("(37%)");
    expect(screen.queryByTestId(TID.costLabel)).toBeNull();
  });

  it("says usage was not reported, shows the engine's estimate, and a window nobody has said as unknown", async () => {
    renderView();
    // llama-cpp-python: no usage in the stream, no context size anywhere.
    await send("chat:stream-start", { provider: "openai", model: "smollm2", contextWindow: null });
    await send("chat:stream-end", { stopReason: "end_turn", usage: null, estimatedContextTokens: 1234, partial: false });
    const gauge = screen.getByTestId(TID.contextGauge);
    await waitFor(() => expect(gauge).toHaveAttribute("data-used", "1234"));
    expect(gauge).toHaveTextContent("≈ 1.2k tokens · context window unknown");
    expect(screen.getByTestId(TID.usageNotReported)).toHaveTextContent("usage not reported");
    expect(gauge).not.toHaveTextContent(/\b0 tokens/);
  });
});
