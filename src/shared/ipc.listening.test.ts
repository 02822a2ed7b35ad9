import { emit } from "@tauri-apps/api/event";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, describe, expect, it, vi } from "vitest";
import { subscribeMenu, subscribeProtocolEvents } from "./ipc";

afterEach(() => vi.restoreAllMocks());

describe("stopping a listener", () => {
  // A component unmounted while its subscription was still on its way stops listening as soon as
  // the subscription arrives: by then the window's event bridge may be gone (here: the mocks torn
  // down, as after a test). Tauri's unlisten then rejects; that must be logged, not left unhandled.
  it("logs, and leaves no rejection behind, when the event bridge is already gone", async () => {
    mockIPC(() => null, { shouldMockEvents: true });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const stopMenu = await subscribeMenu(() => undefined);
    const stopChat = await subscribeProtocolEvents(() => undefined);
    clearMocks();
    stopMenu();
    stopChat();
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith("could not stop listening to menuAction", expect.any(TypeError)));
    expect(warn).toHaveBeenCalledWith("could not stop listening to the conversation's events", expect.any(TypeError));
  });

  it("stops quietly while the bridge is up", async () => {
    mockIPC(() => null, { shouldMockEvents: true });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    let seen = 0;
    const stop = await subscribeMenu(() => (seen += 1));
    await emit("menu:action", "newConversation");
    await vi.waitFor(() => expect(seen).toBe(1));
    stop();
    await new Promise((r) => setTimeout(r, 0));
    await emit("menu:action", "newConversation");
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toBe(1);
    expect(warn).not.toHaveBeenCalled();
  });
});
