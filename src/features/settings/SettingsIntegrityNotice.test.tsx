// Review #9, finding 9: a settings file Warden did not write is reported in Settings, and the user
// can accept it as it is.
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it, vi } from "vitest";
import type { Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { SettingsIntegrityNotice } from "./SettingsIntegrityNotice";

const FILE: Settings = {
  trustLevel: "autonomous",
  activeProvider: "anthropic",
  providers: {},
  projectDir: null,
  toolPermissions: {},
  approvalTimeoutSecs: 30,
  searxngUrl: "http://localhost:8080",
};

describe("SettingsIntegrityNotice", () => {
  it("says nothing when Warden wrote the file", async () => {
    const calls: string[] = [];
    mockIPC((cmd) => {
      calls.push(cmd);
      return { trusted: true, problem: null, notice: null };
    });
    render(<SettingsIntegrityNotice onAccepted={vi.fn()} />);
    await waitFor(() => expect(calls).toContain("settings_integrity"));
    expect(screen.queryByTestId(TID.settingsIntegrityNotice)).toBeNull();
    expect(screen.queryByTestId(TID.settingsLoadNotice)).toBeNull();
  });

  it("tells where an unreadable settings file was kept, without an accept button", async () => {
    const notice = "The settings file could not be read (expected value). It was kept as /h/settings.json.invalid and the default settings are in use.";
    mockIPC(() => ({ trusted: true, problem: null, notice }));
    render(<SettingsIntegrityNotice onAccepted={vi.fn()} />);
    await waitFor(() => expect(screen.getByTestId(TID.settingsLoadNotice)).toHaveTextContent("kept as /h/settings.json.invalid"));
    expect(screen.queryByTestId(TID.settingsAcceptFile)).toBeNull();
  });

  it("reports a file changed outside Warden and accepts it on request", async () => {
    let trusted = false;
    const calls: string[] = [];
    mockIPC((cmd) => {
      calls.push(cmd);
      if (cmd === "settings_integrity") {
        return trusted ? { trusted: true, problem: null } : { trusted: false, problem: "The settings file was not written by Warden." };
      }
      if (cmd === "settings_accept_file") {
        trusted = true;
        return null;
      }
      if (cmd === "settings_get") return FILE;
      throw new Error(`unexpected ${cmd}`);
    });
    const onAccepted = vi.fn();
    render(<SettingsIntegrityNotice onAccepted={onAccepted} />);
    const notice = await screen.findByTestId(TID.settingsIntegrityNotice);
    expect(notice).toHaveTextContent("not written by Warden");
    await userEvent.click(screen.getByTestId(TID.settingsAcceptFile));
    await waitFor(() => expect(onAccepted).toHaveBeenCalledWith(FILE));
    expect(calls).toContain("settings_accept_file");
    await waitFor(() => expect(screen.queryByTestId(TID.settingsIntegrityNotice)).toBeNull());
  });
});
