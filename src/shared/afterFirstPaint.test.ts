import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { afterFirstPaint } from "./afterFirstPaint";

/** A PerformanceObserver that delivers only what the test hands it. */
class FakeObserver {
  static current: FakeObserver | null = null;
  static supportedEntryTypes = ["paint"];
  observed: unknown = null;
  disconnected = false;
  constructor(private readonly callback: (list: { getEntries: () => { name: string }[] }) => void) {
    FakeObserver.current = this;
  }
  observe(options: unknown) {
    this.observed = options;
  }
  disconnect() {
    this.disconnected = true;
  }
  deliver(...names: string[]) {
    this.callback({ getEntries: () => names.map((name) => ({ name })) });
  }
}

describe("afterFirstPaint", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    FakeObserver.current = null;
  });

  it("waits for the first contentful paint, then runs once in a task of its own", () => {
    vi.stubGlobal("PerformanceObserver", FakeObserver);
    const task = vi.fn();
    afterFirstPaint(task);
    const observer = FakeObserver.current!;
    expect(observer.observed).toEqual({ type: "paint", buffered: true });

    observer.deliver("first-paint");
    vi.advanceTimersByTime(0);
    expect(task).not.toHaveBeenCalled();

    observer.deliver("first-contentful-paint");
    expect(task).not.toHaveBeenCalled(); // not inside the observer's callback
    vi.advanceTimersByTime(0);
    expect(task).toHaveBeenCalledTimes(1);
    expect(observer.disconnected).toBe(true);

    observer.deliver("first-contentful-paint");
    vi.advanceTimersByTime(5000);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it("runs after the fallback time when no paint is reported", () => {
    vi.stubGlobal("PerformanceObserver", FakeObserver);
    const task = vi.fn();
    afterFirstPaint(task, 300);
    vi.advanceTimersByTime(299);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledTimes(1);
    expect(FakeObserver.current!.disconnected).toBe(true);
  });

  it("runs on the next task where paints cannot be observed", () => {
    vi.stubGlobal("PerformanceObserver", undefined);
    const task = vi.fn();
    afterFirstPaint(task);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(0);
    expect(task).toHaveBeenCalledTimes(1);
  });
});
