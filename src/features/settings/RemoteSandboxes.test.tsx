// Settings → Sandbox for a linked remote project: its box asked there, and its cache layer cleared
// there (`remote_clear_cache_layer`), the size asked again after; a Clear that fails says why.
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { SandboxStatus } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { REMOTE_PROJECT } from "../../test/remoteFixtures";
import { RemoteSandboxes } from "./RemoteSandboxes";

const PROJECT = REMOTE_PROJECT;

const status = (cacheLayerBytes: number): SandboxStatus => ({
  contained: true,
  mechanism: "bubblewrap + seccomp",
  writable: [],
  caches: ["/home/builder/.npm"],
  layered: true,
  layerUnavailable: null,
  cacheLayerBytes,
  hidden: [],
  readable: [],
  registryHosts: [],
  credentialLocations: [],
  managed: { file: "/etc/warden/managed-settings.json", rules: [], problem: null, warnings: [] },
});

let layerBytes: number;
let clearFails: string | null;
let calls: { cmd: string; args: Record<string, unknown> }[];

beforeEach(() => {
  layerBytes = 2 * 1024 * 1024;
  clearFails = null;
  calls = [];
  mockIPC((cmd, args) => {
    calls.push({ cmd, args: (args ?? {}) as Record<string, unknown> });
    if (cmd === "remote_sandbox_status") return status(layerBytes);
    if (cmd === "remote_clear_cache_layer") {
      if (clearFails) throw { code: "INTERNAL", message: clearFails };
      layerBytes = 0;
      return null;
    }
    return null;
  });
});

async function openPart() {
  render(<RemoteSandboxes projects={[PROJECT]} />);
  const part = screen.getByTestId(TID.remoteSandbox);
  await userEvent.click(within(part).getByText(/The box on builder@build-box/));
  await waitFor(() => expect(within(part).getByTestId(TID.sandboxCacheLayer)).toHaveTextContent("2.0 MB"));
  return part;
}

describe("a remote project's cache layer", () => {
  it("is cleared there, and its size asked there again", async () => {
    const part = await openPart();
    await userEvent.click(within(part).getByTestId(TID.sandboxCacheLayerClear));
    await waitFor(() => expect(within(part).getByTestId(TID.sandboxCacheLayer)).toHaveTextContent("0 B"));
    expect(calls.filter((c) => c.cmd === "remote_clear_cache_layer").map((c) => c.args)).toEqual([{ conversationId: PROJECT.conversationId }]);
    expect(calls.filter((c) => c.cmd === "remote_sandbox_status")).toHaveLength(2);
    expect(within(part).getByTestId(TID.sandboxCacheLayerClear)).toBeDisabled();
  });

  it("says why it could not be cleared, and keeps the size shown", async () => {
    clearFails = "This remote project is not linked: link it to see its box.";
    const part = await openPart();
    await userEvent.click(within(part).getByTestId(TID.sandboxCacheLayerClear));
    expect(await within(part).findByText(/not linked: link it/)).toBeInTheDocument();
    expect(within(part).getByTestId(TID.sandboxCacheLayer)).toHaveTextContent("2.0 MB");
    expect(within(part).getByTestId(TID.sandboxCacheLayerClear)).toBeEnabled();
  });
});
