import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it, vi } from "vitest";
import type { AppInfo } from "../shared/ipc";
import { TID } from "../shared/testids";
import { AboutDialog } from "./AboutDialog";

const INFO: AppInfo = {
  name: "Warden",
  version: "0.1.0",
  licence: "MIT",
  places: [
    { what: "Settings", path: "/home/me/.config/warden/settings.json" },
    { what: "Logs", path: "/home/me/.local/state/warden/logs" },
  ],
  updates: "Updates itself: Help → Check for Updates.",
};

describe("AboutDialog", () => {
  it("shows the version, the licence and where each kind of data lives, and opens the log folder", async () => {
    const calls: string[] = [];
    mockIPC((cmd) => {
      calls.push(cmd);
      if (cmd === "app_info") return INFO;
      if (cmd === "logs_open") return null;
      throw new Error(`unexpected ${cmd}`);
    });
    const onClose = vi.fn();
    render(<AboutDialog onClose={onClose} />);
    expect(await screen.findByTestId(TID.aboutVersion)).toHaveTextContent("Warden 0.1.0");
    const dialog = screen.getByTestId(TID.aboutDialog);
    expect(dialog).toHaveTextContent("MIT licence");
    expect(within(dialog).getByText("/home/me/.local/state/warden/logs")).toBeInTheDocument();
    expect(dialog).toHaveTextContent("Updates itself");
    await userEvent.click(screen.getByRole("button", { name: "Open log folder" }));
    await waitFor(() => expect(calls).toContain("logs_open"));
    await userEvent.keyboard("{Escape}");
    expect(onClose).toHaveBeenCalled();
  });

  it("says why when the information cannot be had", async () => {
    mockIPC(() => {
      throw { code: "INTERNAL", message: "no home" };
    });
    render(<AboutDialog onClose={() => {}} />);
    expect(await screen.findByRole("alert")).toHaveTextContent("no home");
  });
});
