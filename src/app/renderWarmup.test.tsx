import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { warmUpRenderers } from "./renderWarmup";

describe("warmUpRenderers", () => {
  let frames: FrameRequestCallback[];
  beforeEach(() => {
    vi.useFakeTimers();
    frames = [];
    vi.stubGlobal("requestAnimationFrame", (cb: FrameRequestCallback) => frames.push(cb));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  const host = () => document.querySelector<HTMLElement>("body > .messages[aria-hidden='true']");
  const nextFrame = () => act(() => void frames.shift()?.(performance.now()));

  it("lays out the transcript's renderers hidden, a piece per frame, then removes them", async () => {
    warmUpRenderers({ delayMs: 100 });
    expect(host()).toBeNull();
    await vi.advanceTimersByTimeAsync(100);
    expect(host()).not.toBeNull();
    expect(host()!.inert).toBe(true);
    expect(host()!.style.visibility).toBe("hidden");

    nextFrame();
    expect(host()!.querySelectorAll("[data-role='user']")).toHaveLength(1);
    expect(host()!.querySelector("[data-role='assistant']")).toBeNull();
    nextFrame();
    const answer = host()!.querySelector("[data-role='assistant']")!;
    // The real renderers ran: markdown with a highlighted code block, a running block, the diff.
    expect(answer.querySelector("h1")?.textContent).toBe("Heading");
    expect(answer.querySelector("pre code")).not.toBeNull();
    expect(answer.querySelectorAll("[data-testid='tool-block']").length).toBe(5);
    expect(answer.textContent).toContain("+b");

    let guard = 0;
    while (frames.length && guard++ < 50) nextFrame();
    expect(host()).toBeNull();
    expect(frames).toHaveLength(0);
  });

  it("does nothing once cancelled", async () => {
    const cancel = warmUpRenderers({ delayMs: 100 });
    cancel();
    await vi.advanceTimersByTimeAsync(200);
    expect(host()).toBeNull();
    expect(frames).toHaveLength(0);
  });

  it("cancelling mid-way removes what was mounted", async () => {
    const cancel = warmUpRenderers({ delayMs: 0 });
    await vi.advanceTimersByTimeAsync(0);
    nextFrame();
    expect(host()).not.toBeNull();
    act(() => cancel());
    expect(host()).toBeNull();
  });
});
