import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import { messageText } from "./selectors";
import { MAX_EVENTS_PER_FRAME, connectEvents, createEventBatcher } from "./bridge";
import type { ProtocolEvent } from "../ipc";
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

describe("createEventBatcher", () => {
  it("folds a burst over several frames, in order, at most MAX_EVENTS_PER_FRAME per frame", () => {
    const store = createChatStore();
    const frames: (() => void)[] = [];
    const batcher = createEventBatcher(store, (f) => frames.push(f));
    const n = MAX_EVENTS_PER_FRAME * 2 + 3;
    for (let i = 0; i < n; i++) {
      batcher.push({
        event: "chat:tool-start",
        payload: { conversationId: "c", messageId: "m", toolId: `t${i}`, toolName: "file_read", input: {} },
      } as ProtocolEvent);
    }
    const tools = () => Object.keys(store.getState().conversations["c"]?.tools ?? {}).length;
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(tools()).toBe(MAX_EVENTS_PER_FRAME);
    frames.shift()!();
    frames.shift()!();
    expect(tools()).toBe(n);
    expect(frames).toHaveLength(0);
    const m = store.getState().conversations["c"]!.messages["m"]!;
    if (m.kind !== "assistant") throw new Error("expected assistant");
    expect(m.segments.map((s) => (s.kind === "tool" ? s.toolId : ""))).toEqual(Array.from({ length: n }, (_, i) => `t${i}`));
  });
});
