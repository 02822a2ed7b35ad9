import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { TID } from "../../shared/testids";
import { localPlace, remotePlace } from "../../shared/projectPlace";
import { BoxHomeNoticeBar } from "./BoxHomeNoticeBar";

let calls: string[];
let notice: { paths: string[]; more: number } | null;
let dismissFails: boolean;

beforeEach(() => {
  calls = [];
  notice = { paths: ["/home/ada/Documents", "/home/ada/work"], more: 3 };
  dismissFails = false;
  mockIPC((cmd, args) => {
    calls.push(cmd);
    if (cmd === "remote_box_notice" || cmd === "remote_box_notice_dismiss") {
      expect(args).toEqual({ conversationId: "c-remote" });
    }
    if (cmd === "box_home_notice" || cmd === "remote_box_notice") return notice;
    if (cmd === "box_home_notice_dismiss" || cmd === "remote_box_notice_dismiss") {
      if (dismissFails) throw { code: "internal", message: "the data folder is read-only" };
      notice = null;
      return null;
    }
    return undefined;
  });
});

describe("what a project's box no longer shows of the home", () => {
  it("names the paths left out, the count of the rest, and where to give one back; Got it ends it for good", async () => {
    const user = userEvent.setup();
    const openSettings = vi.fn();
    const { unmount } = render(<BoxHomeNoticeBar place={localPlace("/home/ada/project")} onOpenSettings={openSettings} />);
    const bar = await screen.findByTestId(TID.boxHomeNotice);
    expect(bar).toHaveTextContent("commands in this project now see only your toolchains");
    expect(screen.getByTestId(TID.boxHomeNoticePaths)).toHaveTextContent("/home/ada/Documents/home/ada/workand 3 more");
    expect(bar).toHaveTextContent("Settings → Sandbox");
    await user.click(screen.getByTestId(TID.boxHomeNoticeSettings));
    expect(openSettings).toHaveBeenCalledOnce();
    await user.click(screen.getByTestId(TID.boxHomeNoticeDismiss));
    await waitFor(() => expect(screen.queryByTestId(TID.boxHomeNotice)).toBeNull());
    expect(calls).toContain("box_home_notice_dismiss");
    unmount();
    // The next start asks again, and there is nothing to say.
    render(<BoxHomeNoticeBar place={localPlace("/home/ada/project")} onOpenSettings={openSettings} />);
    await waitFor(() => expect(calls.filter((c) => c === "box_home_notice")).toHaveLength(2));
    expect(screen.queryByTestId(TID.boxHomeNotice)).toBeNull();
  });

  it("stays, with the reason, when it cannot be marked as read", async () => {
    const user = userEvent.setup();
    dismissFails = true;
    render(<BoxHomeNoticeBar place={localPlace("/p")} onOpenSettings={() => undefined} />);
    await user.click(await screen.findByTestId(TID.boxHomeNoticeDismiss));
    expect(await screen.findByText(/the data folder is read-only/)).toBeInTheDocument();
    expect(screen.getByTestId(TID.boxHomeNotice)).toBeInTheDocument();
  });

  it("asks nothing without a project folder", async () => {
    render(<BoxHomeNoticeBar place={null} onOpenSettings={() => undefined} />);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toEqual([]);
    expect(screen.queryByTestId(TID.boxHomeNotice)).toBeNull();
  });

  it("over a remote project's conversation, is that machine's, asked and read there", async () => {
    const user = userEvent.setup();
    notice = { paths: ["/home/dev/.aws"], more: 0 };
    render(<BoxHomeNoticeBar place={remotePlace("c-remote", "build-box:/srv/app", "build-box")} onOpenSettings={() => undefined} />);
    const bar = await screen.findByTestId(TID.boxHomeNotice);
    expect(bar).toHaveTextContent("only your toolchains of your home on build-box");
    expect(screen.getByTestId(TID.boxHomeNoticePaths)).toHaveTextContent("/home/dev/.aws");
    await user.click(screen.getByTestId(TID.boxHomeNoticeDismiss));
    await waitFor(() => expect(screen.queryByTestId(TID.boxHomeNotice)).toBeNull());
    expect(calls).toEqual(["remote_box_notice", "remote_box_notice_dismiss"]);
  });
});
