// Hook runs in the transcript (docs/HOOKS.md): live from `chat:hook`, each a collapsed row under
// the tool call it ran for, in the message it ran for, or in the conversation where it arrived;
// opened, its exact command, how it ended and what it printed, as text.
import { act, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HookRun } from "../../shared/ipc";
import { connectEvents } from "../../shared/store/bridge";
import { createChatStore, type ChatStore } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import { renderConversation } from "../../test/renderConversation";

const C = "conv-hooks";
let store: ChatStore;
let stop: () => void;

beforeEach(async () => {
  mockIPC(() => null, { shouldMockEvents: true });
  store = createChatStore();
  stop = await connectEvents(store, (flush) => flush());
});
afterEach(() => stop());

const send = (event: string, payload: object) => act(() => emit(event, { conversationId: C, ...payload }));

function run(over: Partial<HookRun>): Partial<HookRun> {
  return {
    messageId: null,
    toolId: null,
    hookEvent: "PreToolUse",
    command: "python3 check.py",
    origin: "user",
    contained: true,
    exitCode: 0,
    timedOut: false,
    durationMs: 42,
    outcome: "no effect",
    output: "",
    ...over,
  };
}

/** A turn: the user's message, then an answer with text and one `bash` call (t1), as the engine sends them. */
async function turnWithHooks() {
  renderConversation(store, { conversationId: C });
  act(() => store.dispatch({ type: "user-send", conversationId: C, messageId: "u1", text: "Clean the build" }));
  await send("chat:hook", run({ hookEvent: "UserPromptSubmit", command: "./remind.sh", outcome: "added context" }));
  await send("chat:stream-start", { messageId: "m1", provider: "anthropic", model: "claude-test", contextWindow: null });
  await send("chat:text-delta", { messageId: "m1", delta: "Removing the build folder." });
  // PreToolUse runs before the call is announced: its run comes before the tool's start.
  await send(
    "chat:hook",
    run({
      messageId: "m1",
      toolId: "t1",
      command: 'python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py',
      origin: "project",
      exitCode: 2,
      durationMs: 1500,
      outcome: "blocked: rm -rf is not allowed here",
      output: "rm -rf is not allowed here <script>alert(1)</script><b>bold</b>\u202e",
    }),
  );
  await send("chat:tool-start", { messageId: "m1", toolId: "t1", toolName: "bash", category: "exec", input: { command: "rm -rf build" } });
  await send("chat:tool-result", { messageId: "m1", toolId: "t1", status: "error", code: "USER_REJECTED", result: "denied" });
  await send(
    "chat:hook",
    run({ messageId: "m1", hookEvent: "Stop", command: "notify-send done", contained: false, exitCode: null, timedOut: true, outcome: "no effect" }),
  );
}

describe("hook runs in the transcript", () => {
  it("puts each run under its tool call, in its message, or in the conversation where it arrived", async () => {
    await turnWithHooks();
    const [question, answer] = screen.getAllByTestId(TID.message);
    const rows = screen.getAllByTestId(TID.hookRun);
    expect(rows.map((r) => [r.dataset.hookEvent, r.dataset.place])).toEqual([
      ["UserPromptSubmit", "conversation"],
      ["PreToolUse", "tool"],
      ["Stop", "message"],
    ]);
    const [prompt, pre, stopHook] = rows as [HTMLElement, HTMLElement, HTMLElement];
    // The prompt's hook: after the user's message, before the answer, in no message.
    expect(question!.compareDocumentPosition(prompt) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(prompt.compareDocumentPosition(answer!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(question!.contains(prompt) || answer!.contains(prompt)).toBe(false);
    // The call's hook: in the answer, right under the block of t1, which the later tool-start named.
    const block = within(answer!).getByTestId(TID.toolBlock);
    expect(block).toHaveAttribute("data-tool-name", "bash");
    expect(block.nextElementSibling?.contains(pre)).toBe(true);
    // The Stop hook: in the answer, after its tool blocks.
    expect(answer!.contains(stopHook)).toBe(true);
    expect(block.nextElementSibling?.contains(stopHook)).toBe(false);
  });

  it("says in one line what each run decided, whose it is, where it ran and how long it took", async () => {
    await turnWithHooks();
    const [prompt, pre, stopHook] = screen.getAllByTestId(TID.hookRun) as [HTMLElement, HTMLElement, HTMLElement];
    expect(prompt).toHaveTextContent("Hook · UserPromptSubmit · added context");
    expect(prompt).toHaveTextContent("yours");
    expect(pre).toHaveTextContent("Hook · PreToolUse · blocked: rm -rf is not allowed here");
    expect(pre).toHaveTextContent("project");
    expect(pre).toHaveTextContent("1.5 s");
    expect(pre).not.toHaveTextContent("outside the box");
    expect(stopHook).toHaveTextContent("outside the box");
    expect(stopHook).toHaveAttribute("data-contained", "false");
    // Collapsed: neither the command nor the output is shown.
    expect(within(pre).queryByTestId(TID.hookRunCommand)).toBeNull();
    expect(within(pre).queryByTestId(TID.hookRunOutput)).toBeNull();
  });

  it("opens to the exact command, the exit code and the output, shown as text and never as markup", async () => {
    await turnWithHooks();
    const pre = screen.getAllByTestId(TID.hookRun)[1]!;
    const toggle = within(pre).getByTestId(TID.hookRunToggle);
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute("aria-expanded", "true");
    expect(within(pre).getByTestId(TID.hookRunCommand).textContent).toBe('python3 "$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py');
    expect(within(pre).getByTestId(TID.hookRunExit)).toHaveTextContent("Exit code 2");
    const output = within(pre).getByTestId(TID.hookRunOutput);
    expect(output).toHaveTextContent("rm -rf is not allowed here <script>alert(1)</script><b>bold</b>");
    // What a hook printed is untrusted: no element is made of it, and a hidden character shows as a badge.
    expect(output.querySelector("script, b")).toBeNull();
    expect(output).toHaveTextContent("⟨U+202E⟩");
    expect(output.textContent).not.toContain("\u202e");
  });

  it("says a run timed out, and that it ran outside the box with the user's full access", async () => {
    await turnWithHooks();
    const stopHook = screen.getAllByTestId(TID.hookRun)[2]!;
    await userEvent.click(within(stopHook).getByTestId(TID.hookRunToggle));
    const exit = within(stopHook).getByTestId(TID.hookRunExit);
    expect(exit).toHaveTextContent("Timed out");
    expect(exit).toHaveTextContent("ran outside the box, with your full access");
    expect(within(stopHook).getByTestId(TID.hookRunOutput)).toHaveTextContent("It printed nothing.");
  });

  it("shows nothing for a conversation this window does not show", async () => {
    renderConversation(store, { conversationId: C });
    await act(() => emit("chat:hook", { ...run({ messageId: "m9", toolId: "t9" }), conversationId: "elsewhere" }));
    expect(store.getState().conversations.elsewhere).toBeUndefined();
    expect(screen.queryByTestId(TID.hookRun)).toBeNull();
  });
});
