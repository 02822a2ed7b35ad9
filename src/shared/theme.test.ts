import { afterEach, describe, expect, it, vi } from "vitest";
import { applyTheme } from "./theme";

/** A system preference the test can change, as `window.matchMedia` reports it. */
function systemPrefers(dark: boolean) {
  const listeners = new Set<(e: MediaQueryListEvent) => void>();
  const query = {
    matches: dark,
    addEventListener: (_: string, f: (e: MediaQueryListEvent) => void) => listeners.add(f),
    removeEventListener: (_: string, f: (e: MediaQueryListEvent) => void) => listeners.delete(f),
  };
  vi.stubGlobal("matchMedia", () => query);
  return {
    change(nowDark: boolean) {
      query.matches = nowDark;
      for (const f of listeners) f({ matches: nowDark } as MediaQueryListEvent);
    },
    listening: () => listeners.size,
  };
}

afterEach(() => vi.unstubAllGlobals());

describe("applyTheme", () => {
  it("uses the chosen theme whatever the system prefers", () => {
    systemPrefers(true);
    applyTheme("light");
    expect(document.documentElement.dataset.theme).toBe("light");
    applyTheme("dark");
    expect(document.documentElement.dataset.theme).toBe("dark");
  });

  it("follows the system, also when it changes, until another theme is chosen", () => {
    const system = systemPrefers(false);
    applyTheme("system");
    expect(document.documentElement.dataset.theme).toBe("light");
    system.change(true);
    expect(document.documentElement.dataset.theme).toBe("dark");
    applyTheme("light");
    expect(system.listening()).toBe(0);
    system.change(true);
    expect(document.documentElement.dataset.theme).toBe("light");
  });
});
