import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import type { UpdateCheck } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { UpdateNotice } from "./UpdateNotice";
import { useUpdates } from "./useUpdates";

function Harness({ checkAtStart }: { checkAtStart: boolean }) {
  const updates = useUpdates(checkAtStart);
  return (
    <>
      <button type="button" onClick={updates.check}>
        check
      </button>
      <UpdateNotice updates={updates} />
    </>
  );
}

type Answer = UpdateCheck | { fail: string };

function serve(answers: Answer[], install: () => unknown = () => null) {
  const calls: string[] = [];
  mockIPC((cmd) => {
    calls.push(cmd);
    if (cmd === "update_check") {
      const next = answers.length > 1 ? answers.shift() : answers[0];
      if (next && "fail" in next) throw { code: "NETWORK", message: next.fail };
      return next;
    }
    if (cmd === "update_install") return install();
    if (cmd === "plugin:event|listen") return 1;
    if (cmd === "plugin:event|unlisten") return null;
    throw new Error(`unexpected command ${cmd}`);
  });
  return calls;
}

const AVAILABLE: UpdateCheck = {
  status: "available",
  current: "0.1.0",
  version: "0.1.1",
  notes: "Faster search.\nFewer bugs.",
  published: "2026-11-23 12:00:00.0 +00:00:00",
};

describe("updates", () => {
  it("says nothing after a quiet check at start that finds nothing, and answers a check the user asks for", async () => {
    const calls = serve([{ status: "upToDate", current: "0.1.0" }]);
    render(<Harness checkAtStart />);
    await waitFor(() => expect(calls).toContain("update_check"));
    expect(screen.queryByTestId(TID.updateNotice)).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "check" }));
    expect(await screen.findByText("Warden 0.1.0 is the newest version.")).toBeInTheDocument();
    await userEvent.click(screen.getByTestId(TID.updateDismiss));
    expect(screen.queryByTestId(TID.updateNotice)).toBeNull();
  });

  it("does not look at start when Settings say not to, and a failed quiet check stays quiet", async () => {
    const calls = serve([{ fail: "Could not reach the update server (timed out)." }]);
    const { unmount } = render(<Harness checkAtStart={false} />);
    await act(async () => {});
    expect(calls).not.toContain("update_check");
    unmount();
    render(<Harness checkAtStart />);
    await waitFor(() => expect(calls).toContain("update_check"));
    expect(screen.queryByTestId(TID.updateNotice)).toBeNull();
  });

  it("offers an update found at start with its notes, installs on the user's word, and says why an install failed", async () => {
    const calls = serve([AVAILABLE], () => {
      throw { code: "INTERNAL", message: "The downloaded update is not signed with Warden's key, so it was not installed." };
    });
    render(<Harness checkAtStart />);
    expect(await screen.findByTestId(TID.updateVersion)).toHaveTextContent("Warden 0.1.1 is available (you have 0.1.0).");
    expect(screen.queryByTestId(TID.updateNotes)).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "What's new" }));
    expect(screen.getByTestId(TID.updateNotes)).toHaveTextContent("Faster search.");
    expect(calls).not.toContain("update_install");
    await userEvent.click(screen.getByTestId(TID.updateInstall));
    expect(await screen.findByTestId(TID.updateError)).toHaveTextContent("not signed with Warden's key");
    expect(calls.filter((c) => c === "update_install")).toHaveLength(1);
    await userEvent.click(screen.getByTestId(TID.updateCheckAgain));
    expect(await screen.findByTestId(TID.updateVersion)).toHaveTextContent("0.1.1");
  });

  it("says why this copy does not update itself when asked", async () => {
    serve([{ status: "unavailable", reason: "Warden was installed from a apt repository: apt keeps it up to date." }]);
    render(<Harness checkAtStart={false} />);
    await userEvent.click(screen.getByRole("button", { name: "check" }));
    expect(await screen.findByTestId(TID.updateNotice)).toHaveTextContent("apt keeps it up to date");
  });
});
