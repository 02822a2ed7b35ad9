import { act, render, waitFor } from "@testing-library/react";
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { listenShortcuts, type Shortcut } from "../shared/keyboard";
import { useMenu } from "./useMenu";

function Host(props: { onAbout: () => void; onCheckForUpdates: () => void }) {
  useMenu(props);
  return null;
}

const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

describe("useMenu", () => {
  it("carries out each menu item in the window: shortcuts as their keys, the others as named", async () => {
    const calls: string[] = [];
    mockIPC(
      (cmd) => {
        calls.push(cmd);
        return null;
      },
      { shouldMockEvents: true },
    );
    const shortcuts: Shortcut[] = [];
    stops.push(listenShortcuts((s) => (shortcuts.push(s), true)));
    const onAbout = vi.fn();
    const onCheckForUpdates = vi.fn();
    render(<Host onAbout={onAbout} onCheckForUpdates={onCheckForUpdates} />);
    // The listener is registered once the effect's promise settles.
    await act(async () => {});

    for (const action of ["newConversation", "settings", "searchConversations", "about", "checkForUpdates", "openLogFolder"]) {
      await emit("menu:action", action);
    }
    expect(shortcuts).toEqual(["newConversation", "settings", "searchConversations"]);
    expect(onAbout).toHaveBeenCalledTimes(1);
    expect(onCheckForUpdates).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(calls).toContain("logs_open"));
  });
});
