// Work the window's first frame must not wait for (loading a chunk, warming caches) starts once
// the page has painted something: the `first-contentful-paint` entry. Scheduling by frames is
// not enough: WebKit runs the first animation frame before React has rendered anything.

const FCP = "first-contentful-paint";

/** Runs `task` in its own task just after the first contentful paint (or after `fallbackMs`). */
export function afterFirstPaint(task: () => void, fallbackMs = 1000): void {
  const observes = typeof PerformanceObserver !== "undefined" && PerformanceObserver.supportedEntryTypes?.includes("paint");
  if (!observes) {
    setTimeout(task, 0);
    return;
  }
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    observer.disconnect();
    clearTimeout(fallback);
    task();
  };
  const observer = new PerformanceObserver((list) => {
    // Out of the observer's callback: the paint's own task is not the place for the work.
    if (list.getEntries().some((entry) => entry.name === FCP)) setTimeout(run, 0);
  });
  observer.observe({ type: "paint", buffered: true });
  const fallback = setTimeout(run, fallbackMs);
}
