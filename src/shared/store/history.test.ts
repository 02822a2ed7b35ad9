import { describe, expect, it } from "vitest";
import { reduce, initialChatState } from "./reducer";
import { messageText, messageThinking, messageToolIds } from "./selectors";

describe("history-loaded", () => {
  it("rebuilds messages and tool blocks with their results", () => {
    const s = reduce(initialChatState, {
      type: "history-loaded",
      conversationId: "c",
      history: [
        { role: "user", content: [{ type: "text", text: "list files" }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "use list_dir", signature: "sig" },
            { type: "text", text: "Looking." },
            { type: "tool_use", id: "t1", name: "list_dir", input: { path: "." }, rawArguments: null },
            { type: "tool_use", id: "t2", name: "bash", input: { command: "rm x" }, rawArguments: null },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", toolUseId: "t1", toolName: "list_dir", content: "a.txt", isError: false },
            { type: "tool_result", toolUseId: "t2", toolName: "bash", content: "rejected", isError: true },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: "One file." }] },
      ],
    });
    const c = s.conversations["c"]!;
    expect(c.messageIds).toHaveLength(3);
    const [u, a1, a2] = c.messageIds.map((id) => c.messages[id]!);
    expect(u).toMatchObject({ kind: "user", text: "list files" });
    if (a1?.kind !== "assistant" || a2?.kind !== "assistant") throw new Error("expected assistant messages");
    expect(messageThinking(a1)).toBe("use list_dir");
    expect(messageText(a1)).toBe("Looking.");
    expect(messageToolIds(a1)).toEqual(["t1", "t2"]);
    expect(c.tools["t1"]).toMatchObject({ status: "success", result: "a.txt", toolName: "list_dir" });
    expect(c.tools["t2"]).toMatchObject({ status: "error", result: "rejected" });
    expect(messageText(a2)).toBe("One file.");
    expect(c.running).toBe(false);
  });

  it("says what the engine kept: a timed-out approval, a rejection, an old file without a code", () => {
    const s = reduce(initialChatState, {
      type: "history-loaded",
      conversationId: "c",
      history: [
        {
          role: "assistant",
          content: [
            { type: "tool_use", id: "late", name: "file_write", input: {}, rawArguments: null },
            { type: "tool_use", id: "no", name: "bash", input: {}, rawArguments: null },
            { type: "tool_use", id: "old", name: "bash", input: {}, rawArguments: null },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", toolUseId: "late", toolName: "file_write", content: "Not run: nobody approved this call within 30 s.", isError: true, code: "APPROVAL_TIMEOUT" },
            { type: "tool_result", toolUseId: "no", toolName: "bash", content: "The user rejected this call.", isError: true, code: "USER_REJECTED" },
            { type: "tool_result", toolUseId: "old", toolName: "bash", content: "failed", isError: true },
          ],
        },
      ],
    });
    const tools = s.conversations["c"]!.tools;
    expect(tools["late"]).toMatchObject({ status: "expired", errorCode: "APPROVAL_TIMEOUT" });
    expect(tools["no"]).toMatchObject({ status: "denied", errorCode: "USER_REJECTED" });
    expect(tools["old"]).toMatchObject({ status: "error", errorCode: null });
  });

  it("does not overwrite a conversation that already has live messages", () => {
    const live = reduce(initialChatState, { event: "chat:text-delta", payload: { conversationId: "c", messageId: "m", delta: "live" } });
    const after = reduce(live, { type: "history-loaded", conversationId: "c", history: [{ role: "user", content: [{ type: "text", text: "old" }] }] });
    expect(after).toBe(live);
  });

  it("keeps what a newer Warden saved as such: a part of an unknown kind, a reason code it does not know", () => {
    const s = reduce(initialChatState, {
      type: "history-loaded",
      conversationId: "c",
      history: [
        { role: "user", content: [{ type: "text", text: "run it" }, { type: "voice_note" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Running." },
            { type: "citation" },
            { type: "tool_use", id: "t1", name: "bash", input: { command: "ls" }, rawArguments: null },
          ],
        },
        {
          role: "user",
          content: [{ type: "tool_result", toolUseId: "t1", toolName: "bash", content: "no", isError: true, code: "QUOTA_SPENT" }],
        },
      ],
    });
    const c = s.conversations["c"]!;
    const user = c.messages["history-0"];
    expect(user).toMatchObject({ kind: "user", text: "run it", newer: ["voice_note"] });
    const answer = c.messages["history-1"];
    expect(answer?.kind === "assistant" && answer.segments.map((seg) => seg.kind)).toEqual(["text", "newer", "tool"]);
    expect(answer?.kind === "assistant" && answer.segments[1]).toEqual({ kind: "newer", blockType: "citation" });
    expect(c.tools["t1"]).toMatchObject({ status: "error", errorCode: null, newerCode: "QUOTA_SPENT", result: "no" });
  });

  it("opens a conversation that cannot be read whole read-only, its unreadable messages in place, and a later whole read replaces it", () => {
    const stamp = { atMs: 5, model: null };
    const ro = reduce(initialChatState, {
      type: "read-only-loaded",
      conversationId: "c",
      reason: "message 2 cannot be read",
      rows: [
        { kind: "read", message: { role: "user", content: [{ type: "text", text: "hi" }] }, stamp },
        { kind: "unreadable", reason: "damaged" },
      ],
    });
    const c = ro.conversations["c"]!;
    expect(c.readOnly).toEqual({ reason: "message 2 cannot be read" });
    expect(c.messageIds).toEqual(["history-0", "history-1"]);
    expect(c.messages["history-1"]).toEqual({ kind: "unreadable", id: "history-1", reason: "damaged" });
    expect(c.messages["history-0"]).toMatchObject({ kind: "user", text: "hi", at: 5 });

    const whole = reduce(ro, { type: "history-loaded", conversationId: "c", history: [{ role: "user", content: [{ type: "text", text: "hi" }] }] });
    expect(whole.conversations["c"]!.readOnly ?? null).toBeNull();
    expect(whole.conversations["c"]!.messageIds).toEqual(["history-0"]);
  });
});
