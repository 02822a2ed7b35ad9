import { act, fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ToolConfirm } from "../../shared/ipc";
import { ChatStoreProvider, createChatStore, type ChatStore } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import { makeConfirm } from "../../test/builders";
import { ApprovalHost } from "./ApprovalHost";

type Call = { cmd: string; args: Record<string, unknown> };

let calls: Call[];
beforeEach(() => {
  calls = [];
  mockIPC((cmd, args) => {
    calls.push({ cmd, args: (args ?? {}) as Record<string, unknown> });
    return null;
  });
});
afterEach(() => {
  vi.useRealTimers();
});

function storeWith(...confirms: ToolConfirm[]): ChatStore {
  const store = createChatStore();
  for (const c of confirms) {
    store.dispatch({
      event: "chat:tool-start",
      payload: { conversationId: c.conversationId, messageId: c.messageId, toolId: c.toolId, toolName: c.toolName, input: c.input },
    });
    store.dispatch({ event: "chat:tool-confirm", payload: c });
  }
  return store;
}

function renderHost(store: ChatStore) {
  return render(
    <ChatStoreProvider store={store}>
      <ApprovalHost />
    </ChatStoreProvider>,
  );
}

const approveCalls = () => calls.filter((c) => c.cmd === "chat_tool_approve").map((c) => c.args);

describe("ApprovalDialog", () => {
  it("asks about a host the sandbox wants with its own answers, and the answer names the question", async () => {
    const question = makeConfirm({
      confirmId: "q-net",
      kind: "network",
      network: { host: "registry.test", port: 8080, reach: "a loopback address (this machine)" },
      reason: "A command of this session (`bash`) wants to reach registry.test:8080, which no rule allows.",
    });
    const store = storeWith(question);
    renderHost(store);
    expect(screen.getByTestId(TID.approvalHost)).toHaveTextContent("registry.test:8080");
    expect(screen.getByTestId(TID.approvalDanger)).toHaveTextContent("network");
    expect(screen.getByTestId(TID.approvalReach)).toHaveTextContent("this machine");
    expect(screen.getByTestId(TID.reject)).toHaveTextContent("Deny");
    expect(screen.getByTestId(TID.approve)).toHaveTextContent("Allow once");
    // The call it came from ends first: the question stays, so a late "always" still saves the rule.
    act(() => {
      store.dispatch({
        event: "chat:tool-result",
        payload: { conversationId: question.conversationId, messageId: question.messageId, toolId: question.toolId, status: "error", result: "403" },
      });
    });
    await userEvent.click(screen.getByTestId(TID.allowProject));
    expect(approveCalls()).toEqual([
      expect.objectContaining({ confirmId: "q-net", approved: true, remember: "project" }),
    ]);
  });


  it("shows the tool, the exact command, its working directory and the danger level", () => {
    renderHost(storeWith(makeConfirm()));
    const dialog = screen.getByTestId(TID.approvalDialog);
    expect(dialog).toHaveAttribute("data-tool-id", "t1");
    expect(dialog).toHaveTextContent("bash");
    expect(screen.getByTestId(TID.approvalCommand)).toHaveTextContent("rm -rf build");
    expect(screen.getByTestId(TID.approvalCwd)).toHaveTextContent("/home/me/project");
    expect(screen.getByTestId(TID.approvalDanger)).toHaveTextContent("can change your machine");
    expect(screen.getByTestId(TID.approvalCountdown)).toHaveTextContent("30 s");
  });

  it("says why a call asks: a network request plainly, running outside the sandbox as a warning", () => {
    const network = "This command asks for the network, which Warden's sandbox otherwise blocks.";
    const { unmount } = renderHost(storeWith(makeConfirm({ input: { command: "npm install", network: true }, reason: network })));
    expect(screen.getByTestId(TID.approvalWhy)).toHaveTextContent(network);
    expect(screen.getByTestId(TID.approvalWhy)).not.toHaveAttribute("role", "alert");
    unmount();
    const outside = "Dangerous: this command asks to run outside Warden's sandbox, with your full access.";
    renderHost(storeWith(makeConfirm({ input: { command: "make install", outside_sandbox: true }, reason: outside })));
    expect(screen.getByTestId(TID.approvalWhy)).toHaveTextContent(outside);
    expect(screen.getByTestId(TID.approvalWhy)).toHaveAttribute("role", "alert");
  });

  it("shows no reason when the trust level alone asks", () => {
    renderHost(storeWith(makeConfirm()));
    expect(screen.queryByTestId(TID.approvalWhy)).toBeNull();
  });

  it("shows a diff preview for a file change", () => {
    renderHost(
      storeWith(makeConfirm({ toolName: "file_write", input: { path: "a.txt" }, preview: { kind: "diff", path: "a.txt", diff: "@@ -1 +1 @@\n-a\n+b\n" } })),
    );
    expect(screen.getByTestId(TID.approvalPath)).toHaveTextContent("a.txt");
    expect(screen.getByTestId(TID.diffView)).toBeInTheDocument();
  });

  it("Approve sends approved=true, remember=once, and the tool runs", async () => {
    const store = storeWith(makeConfirm());
    renderHost(store);
    await userEvent.click(screen.getByTestId(TID.approve));
    expect(approveCalls()).toEqual([{ conversationId: "c1", confirmId: "q-t1", approved: true, reason: null, remember: "once", always: null }]);
    expect(screen.queryByTestId(TID.approvalDialog)).toBeNull();
    expect(store.getState().conversations["c1"]!.tools["t1"]!.status).toBe("running");
  });

  it("Reject sends the typed reason and marks the block denied", async () => {
    const store = storeWith(makeConfirm());
    renderHost(store);
    await userEvent.type(screen.getByTestId(TID.rejectReason), "not on main");
    await userEvent.click(screen.getByTestId(TID.reject));
    expect(approveCalls()).toEqual([{ conversationId: "c1", confirmId: "q-t1", approved: false, reason: "not on main", remember: null, always: null }]);
    expect(store.getState().conversations["c1"]!.tools["t1"]!.status).toBe("denied");
  });

  it("Allow for this session sends remember=session", async () => {
    renderHost(storeWith(makeConfirm()));
    await userEvent.click(screen.getByTestId(TID.allowSession));
    expect(approveCalls()).toEqual([{ conversationId: "c1", confirmId: "q-t1", approved: true, reason: null, remember: "session", always: null }]);
  });

  it("Enter does not approve unless focus is on Approve; Esc rejects", async () => {
    renderHost(storeWith(makeConfirm()));
    const dialog = screen.getByTestId(TID.approvalDialog);
    expect(dialog).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    expect(approveCalls()).toEqual([]);
    screen.getByTestId(TID.reject).focus();
    await userEvent.keyboard("{Escape}");
    expect(approveCalls()).toEqual([{ conversationId: "c1", confirmId: "q-t1", approved: false, reason: null, remember: null, always: null }]);
  });

  it("Enter on the focused Approve button approves", async () => {
    renderHost(storeWith(makeConfirm()));
    screen.getByTestId(TID.approve).focus();
    await userEvent.keyboard("{Enter}");
    expect(approveCalls()).toEqual([{ conversationId: "c1", confirmId: "q-t1", approved: true, reason: null, remember: "once", always: null }]);
  });

  it("Enter in the reason field rejects with the reason, never approves", async () => {
    renderHost(storeWith(makeConfirm()));
    await userEvent.type(screen.getByTestId(TID.rejectReason), "no{Enter}");
    expect(approveCalls()).toEqual([{ conversationId: "c1", confirmId: "q-t1", approved: false, reason: "no", remember: null, always: null }]);
  });

  it("says where a call stands among its message's asks, which the engine sends one at a time", () => {
    renderHost(storeWith(makeConfirm({ queue: { position: 2, total: 3 } })));
    expect(screen.getByTestId(TID.approvalPosition)).toHaveTextContent("2 of 3");
  });

  it("queues several approvals, shows 1 of N, and moves to the next after an answer", async () => {
    const store = storeWith(makeConfirm(), makeConfirm({ toolId: "t2", preview: { kind: "command", command: "git push", cwd: "/p" } }));
    renderHost(store);
    expect(screen.getByTestId(TID.approvalPosition)).toHaveTextContent("1 of 2");
    expect(screen.getByTestId(TID.approvalDialog)).toHaveAttribute("data-tool-id", "t1");
    await userEvent.click(screen.getByTestId(TID.approve));
    expect(screen.getByTestId(TID.approvalDialog)).toHaveAttribute("data-tool-id", "t2");
    expect(screen.getByTestId(TID.approvalCommand)).toHaveTextContent("git push");
    expect(screen.queryByTestId(TID.approvalPosition)).toBeNull();
    await userEvent.click(screen.getByTestId(TID.reject));
    expect(approveCalls().map((a) => [a.confirmId, a.approved])).toEqual([
      ["q-t1", true],
      ["q-t2", false],
    ]);
    expect(screen.queryByTestId(TID.approvalDialog)).toBeNull();
  });

  it("answers name the confirmation and its conversation, although both conversations' calls are call_0", async () => {
    const store = storeWith(
      makeConfirm({ conversationId: "c-first", toolId: "call_0", confirmId: "q-first" }),
      makeConfirm({ conversationId: "c-second", toolId: "call_0", confirmId: "q-second" }),
    );
    renderHost(store);
    expect(store.getState().approvals.map((a) => a.confirmId)).toEqual(["q-first", "q-second"]);
    await userEvent.click(screen.getByTestId(TID.approve));
    expect(approveCalls()).toEqual([{ conversationId: "c-first", confirmId: "q-first", approved: true, reason: null, remember: "once", always: null }]);
    expect(store.getState().conversations["c-first"]!.tools["call_0"]!.status).toBe("running");
    expect(store.getState().conversations["c-second"]!.tools["call_0"]!.status).toBe("awaiting_approval");
    await userEvent.click(screen.getByTestId(TID.reject));
    expect(approveCalls()[1]).toEqual({ conversationId: "c-second", confirmId: "q-second", approved: false, reason: null, remember: null, always: null });
    expect(screen.queryByTestId(TID.approvalDialog)).toBeNull();
  });

  it("turns the countdown urgent in its last ten seconds", () => {
    vi.useFakeTimers();
    renderHost(storeWith(makeConfirm({ timeoutSecs: 12 })));
    const countdown = screen.getByTestId(TID.approvalCountdown);
    expect(countdown).not.toHaveAttribute("data-urgent");
    act(() => {
      vi.advanceTimersByTime(2_100);
    });
    expect(countdown).toHaveAttribute("data-urgent", "true");
    expect(countdown).toHaveTextContent("10 s left");
    expect(countdown).toHaveAttribute("aria-live", "assertive");
  });

  it("without a time limit shows none and never lapses", () => {
    vi.useFakeTimers();
    const store = storeWith(makeConfirm({ timeoutSecs: 0 }));
    renderHost(store);
    expect(screen.getByTestId(TID.approvalCountdown)).toHaveTextContent("no time limit");
    act(() => {
      vi.advanceTimersByTime(3_600_000);
    });
    expect(store.getState().approvals).toHaveLength(1);
    expect(screen.getByTestId(TID.approve)).toBeEnabled();
  });

  it("counts down to zero, then disables the buttons and leaves the call unrun", () => {
    vi.useFakeTimers();
    const store = storeWith(makeConfirm({ timeoutSecs: 3 }));
    renderHost(store);
    expect(screen.getByTestId(TID.approvalCountdown)).toHaveTextContent("3 s");
    act(() => {
      vi.advanceTimersByTime(1_100);
    });
    expect(screen.getByTestId(TID.approvalCountdown)).toHaveTextContent("2 s");
    act(() => {
      vi.advanceTimersByTime(2_000);
    });
    // The engine's own timeout rejects the call; the UI sends nothing and marks it not run.
    expect(approveCalls()).toEqual([]);
    expect(store.getState().approvals).toEqual([]);
    const t = store.getState().conversations["c1"]!.tools["t1"]!;
    // It reads "timed out", not "not allowed": nobody said no.
    expect(t.status).toBe("expired");
    expect(t.errorCode).toBe("APPROVAL_TIMEOUT");
  });

  it("a tool-result for the pending call closes its dialog", () => {
    const store = storeWith(makeConfirm());
    renderHost(store);
    act(() =>
      store.dispatch({
        event: "chat:tool-result",
        payload: { conversationId: "c1", messageId: "m1", toolId: "t1", status: "error", result: "cancelled", code: "CANCELLED" },
      }),
    );
    expect(screen.queryByTestId(TID.approvalDialog)).toBeNull();
    fireEvent.keyDown(document.body, { key: "Escape" });
    expect(approveCalls()).toEqual([]);
  });

  it("a request from another conversation offers to open it", async () => {
    const store = storeWith(makeConfirm({ conversationId: "other" }));
    const opened: string[] = [];
    render(
      <ChatStoreProvider store={store}>
        <ApprovalHost activeConversationId="c1" onOpenConversation={(id) => opened.push(id)} />
      </ChatStoreProvider>,
    );
    await userEvent.click(screen.getByText(/Asked in another conversation/));
    expect(opened).toEqual(["other"]);
  });
});
