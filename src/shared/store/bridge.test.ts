import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import { messageText } from "./selectors";
import { connectEvents, createEventBatcher } from "./bridge";
import { FrameBudget } from "./frameBudget";
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
    await emit("chat:tool-confirm", { ...base, confirmId: "q2", toolId: "t2", toolName: "bash", input: {}, dangerLevel: "dangerous", timeoutSecs: 5 });
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
  const toolStart = (i: number) =>
    ({
      event: "chat:tool-start",
      payload: { conversationId: "c", messageId: "m", toolId: `t${i}`, toolName: "file_read", input: {} },
    }) as ProtocolEvent;
  const opts = { min: 2, max: 64, start: 16, slowMs: 24, fastMs: 10, step: 4 };
  const microtasks = () => new Promise<void>((r) => setTimeout(r, 0));

  /** A store whose every notification costs `msPerEvent` per folded event on a fake clock. */
  function costly(msPerEvent: number) {
    const store = createChatStore();
    let clock = 0;
    let lastTools = 0;
    store.subscribe(() => {
      const tools = Object.keys(store.getState().conversations["c"]?.tools ?? {}).length;
      clock += (tools - lastTools) * msPerEvent;
      lastTools = tools;
    });
    return { store, now: () => clock, tools: () => lastTools };
  }

  it("folds a burst over several frames, in order, growing the batch while frames are cheap", async () => {
    const { store, now, tools } = costly(0.1);
    const frames: (() => void)[] = [];
    const batcher = createEventBatcher(store, { schedule: (f) => frames.push(f), budget: new FrameBudget(opts), now });
    const n = 40;
    for (let i = 0; i < n; i++) batcher.push(toolStart(i));
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(tools()).toBe(16);
    await microtasks();
    frames.shift()!(); // 1.6 ms of work: the next frame takes 4 more
    expect(tools()).toBe(16 + 20);
    await microtasks();
    frames.shift()!();
    expect(tools()).toBe(n);
    expect(frames).toHaveLength(0);
    const m = store.getState().conversations["c"]!.messages["m"]!;
    if (m.kind !== "assistant") throw new Error("expected assistant");
    expect(m.segments.map((s) => (s.kind === "tool" ? s.toolId : ""))).toEqual(Array.from({ length: n }, (_, i) => `t${i}`));
  });

  it("takes fewer events per frame when folding them is slow, and still drains the queue", async () => {
    const { store, now, tools } = costly(5);
    const frames: (() => void)[] = [];
    const batcher = createEventBatcher(store, { schedule: (f) => frames.push(f), budget: new FrameBudget(opts), now });
    for (let i = 0; i < 100; i++) batcher.push(toolStart(i));
    const sizes: number[] = [];
    while (frames.length) {
      const before = tools();
      frames.shift()!();
      sizes.push(tools() - before);
      await microtasks();
    }
    expect(tools()).toBe(100);
    // 16 × 5 ms and 8 × 5 ms are over the 24 ms budget; 4 × 5 ms is within it.
    expect(sizes.slice(0, 5)).toEqual([16, 8, 4, 4, 4]);
  });
});

describe("FrameBudget", () => {
  it("halves after slow folding, grows after cheap folding, within its bounds", () => {
    const b = new FrameBudget({ min: 2, max: 10, start: 8, slowMs: 34, fastMs: 20, step: 4 });
    b.observe(25);
    expect(b.events).toBe(8);
    b.observe(16);
    expect(b.events).toBe(10);
    b.observe(50);
    b.observe(50);
    b.observe(50);
    expect(b.events).toBe(2);
    b.observe(Number.NaN);
    b.observe(-5);
    expect(b.events).toBe(2);
  });
});
