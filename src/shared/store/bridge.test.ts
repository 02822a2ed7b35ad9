import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import { messageText } from "./selectors";
import { connectEvents } from "./bridge";
import { createChatStore } from "./store";

describe("connectEvents", () => {
  it("folds every chat:* event from Tauri in order, one store notification per batch", async () => {
    mockIPC(() => undefined, { shouldMockEvents: true });
    const store = createChatStore();
    let notified = 0;
    store.subscribe(() => notified++);
    const pending: (() => void)[] = [];
    const stop = await connectEvents(store, (flush) => pending.push(flush));

    const base = { conversationId: "c", messageId: "m" };
    await emit("chat:stream-start", { ...base, provider: "openai", model: "gpt-4o" });
    await emit("chat:text-delta", { ...base, delta: "a" });
    await emit("chat:text-delta", { ...base, delta: "b" });
    await emit("chat:tool-start", { ...base, toolId: "t", toolName: "bash", input: { command: "ls" } });
    await emit("chat:tool-delta", { ...base, toolId: "t", chunk: "x" });
    await emit("chat:tool-confirm", { ...base, toolId: "t2", toolName: "bash", input: {}, dangerLevel: "dangerous", timeoutSecs: 5 });
    await emit("chat:tool-result", { ...base, toolId: "t", status: "success", result: "x" });
    await emit("chat:thinking-delta", { ...base, delta: "hm" });
    await emit("chat:error", { ...base, code: "NETWORK", message: "down", retryable: false });
    await emit("chat:stream-end", { ...base, stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 2 }, partial: false });
    await emit("chat:unknown-thing", { ...base });

    expect(pending).toHaveLength(1);
    expect(store.getState().conversations).toEqual({});
    pending[0]!();
    expect(notified).toBe(1);
    const c = store.getState().conversations["c"]!;
    const m = c.messages["m"]!;
    if (m.kind !== "assistant") throw new Error("expected assistant");
    expect(messageText(m)).toBe("ab");
    expect(c.tools["t"]!.status).toBe("success");
    expect(store.getState().approvals.map((a) => a.toolId)).toEqual(["t2"]);
    expect(m.errors[0]?.code).toBe("NETWORK");
    expect(m.usage).toEqual({ inputTokens: 1, outputTokens: 2 });
    stop();
  });
});
