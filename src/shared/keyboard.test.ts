import { afterEach, describe, expect, it, vi } from "vitest";
import { listenShortcuts, runMenuShortcut, type Shortcut } from "./keyboard";

const stops: (() => void)[] = [];
afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  vi.useRealTimers();
});

function listen(taken: Shortcut[] = ["newConversation", "settings", "searchConversations"]) {
  const seen: Shortcut[] = [];
  stops.push(
    listenShortcuts((s) => {
      seen.push(s);
      return taken.includes(s);
    }),
  );
  return seen;
}

const press = (key: string) => {
  const e = new KeyboardEvent("keydown", { key, ctrlKey: true, cancelable: true });
  window.dispatchEvent(e);
  return e;
};

describe("shortcuts from the keys and from the menu", () => {
  it("a menu item does what its keys do", () => {
    const seen = listen();
    runMenuShortcut("settings");
    runMenuShortcut("newConversation");
    expect(seen).toEqual(["settings", "newConversation"]);
  });

  it("keys the page saw and the menu item they also chose count once", () => {
    const seen = listen();
    const e = press("k");
    expect(e.defaultPrevented).toBe(true);
    runMenuShortcut("searchConversations");
    expect(seen).toEqual(["searchConversations"]);
  });

  it("the same menu item later counts again", () => {
    vi.useFakeTimers();
    const seen = listen();
    press(",");
    vi.advanceTimersByTime(2000);
    vi.spyOn(performance, "now").mockReturnValue(performance.now() + 2000);
    runMenuShortcut("settings");
    expect(seen).toEqual(["settings", "settings"]);
  });

  it("keys nobody takes keep their default", () => {
    listen([]);
    expect(press("l").defaultPrevented).toBe(false);
  });
});
