// `chat:hook` folded into the chat store: each run hangs off what is already there (the tool block,
// the message, or the conversation after its last message), in arrival order.
import { describe, expect, it } from "vitest";
import type { HookRun } from "../../shared/ipc";
import { initialChatState, reduce } from "../../shared/store/reducer";
import { hookRunsByPlace } from "../../shared/store/selectors";
import type { Action, ChatState } from "../../shared/store/types";
import { historyToConversation } from "../../shared/store/history";

const C = "c1";
const hook = (over: Partial<HookRun>): Action => ({
  event: "chat:hook",
  payload: {
    conversationId: C,
    messageId: null,
    toolId: null,
    hookEvent: "PreToolUse",
    command: "x",
    origin: "user",
    contained: true,
    exitCode: 0,
    timedOut: false,
    durationMs: 1,
    outcome: "no effect",
    output: "",
    ...over,
  },
});
const fold = (actions: Action[], from: ChatState = initialChatState) => actions.reduce(reduce, from);

describe("hook runs in the store", () => {
  it("puts a PreToolUse run on its call's block, which the later tool-start names (one block)", () => {
    const s = fold([
      { type: "user-send", conversationId: C, messageId: "u1", text: "hi" },
      hook({ messageId: "m1", toolId: "t1", command: "first" }),
      hook({ messageId: "m1", toolId: "t1", command: "second" }),
      { event: "chat:tool-start", payload: { conversationId: C, messageId: "m1", toolId: "t1", toolName: "bash", input: {} } },
    ]);
    const c = s.conversations[C]!;
    expect(c.tools.t1!.toolName).toBe("bash");
    expect(c.tools.t1!.hooks?.map((h) => h.command)).toEqual(["first", "second"]);
    const m1 = c.messages.m1!;
    expect(m1.kind === "assistant" && m1.segments).toEqual([{ kind: "tool", toolId: "t1" }]);
    expect(m1.kind === "assistant" && m1.hooks).toBeUndefined();
  });

  it("puts a run of a message without a call in that message, and one of neither after the last message", () => {
    const s = fold([
      hook({ command: "before anything" }),
      { type: "user-send", conversationId: C, messageId: "u1", text: "hi" },
      hook({ hookEvent: "SessionStart", command: "start" }),
      hook({ hookEvent: "UserPromptSubmit", command: "prompt" }),
      hook({ hookEvent: "Stop", messageId: "m1", command: "stop" }),
    ]);
    const c = s.conversations[C]!;
    const m1 = c.messages.m1!;
    expect(m1.kind === "assistant" && m1.hooks?.map((h) => h.command)).toEqual(["stop"]);
    // The first came before the conversation was in the window: nothing to hang it off.
    expect([...hookRunsByPlace(c.hookRuns)].map(([at, runs]) => [at, runs.map((r) => r.command)])).toEqual([
      ["u1", ["start", "prompt"]],
    ]);
  });

  it("a reopened conversation has each call's hook runs from its saved report", () => {
    const run = (hookEvent: string, command: string): HookRun => ({
      conversationId: C,
      messageId: "m",
      toolId: "t1",
      hookEvent,
      command,
      origin: "project",
      contained: true,
      exitCode: 2,
      timedOut: false,
      durationMs: 3,
      outcome: "blocked: no",
      output: "no",
    });
    const c = historyToConversation(C, [
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "bash", input: { command: "ls" } }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            toolUseId: "t1",
            toolName: "bash",
            content: "Refused",
            isError: true,
            report: { hooks: [run("PreToolUse", "./check.sh"), run("PostToolUse", "./note.sh")] },
          },
        ],
      },
    ] as never);
    expect(c.tools.t1!.hooks?.map((h) => `${h.hookEvent} ${h.command}`)).toEqual(["PreToolUse ./check.sh", "PostToolUse ./note.sh"]);
  });
});
