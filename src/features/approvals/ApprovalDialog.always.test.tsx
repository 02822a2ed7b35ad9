// "Always allow…" in the approval card, and the line that says why a call asks.
import { cleanup, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { ToolConfirm } from "../../shared/ipc";
import { ChatStoreProvider, createChatStore } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import { makeConfirm } from "../../test/builders";
import { ApprovalHost } from "./ApprovalHost";

let calls: { cmd: string; args: Record<string, unknown> }[];
beforeEach(() => {
  calls = [];
  mockIPC((cmd, args) => {
    calls.push({ cmd, args: (args ?? {}) as Record<string, unknown> });
    return null;
  });
});

function renderCard(confirm: ToolConfirm) {
  const store = createChatStore();
  store.dispatch({
    event: "chat:tool-start",
    payload: { conversationId: confirm.conversationId, messageId: confirm.messageId, toolId: confirm.toolId, toolName: confirm.toolName, input: confirm.input },
  });
  store.dispatch({ event: "chat:tool-confirm", payload: confirm });
  render(
    <ChatStoreProvider store={store}>
      <ApprovalHost />
    </ChatStoreProvider>,
  );
  return store;
}

const approveCalls = () => calls.filter((c) => c.cmd === "chat_tool_approve").map((c) => c.args);

const cargoTest = () =>
  makeConfirm({
    input: { command: "cargo test -p core" },
    preview: { kind: "command", command: "cargo test -p core", cwd: "/p" },
    suggestedRule: { tool: "bash", pattern: "cargo test *" },
  });

describe("Always allow… in the approval card", () => {
  it("is offered only with a suggested rule, and never for a network question", () => {
    renderCard(makeConfirm());
    expect(screen.queryByTestId(TID.allowAlways)).toBeNull();
    cleanup();
    renderCard(
      makeConfirm({
        kind: "network",
        network: { host: "example.test", port: 443, reach: null },
        suggestedRule: { tool: "network", pattern: "example.test:443" },
      }),
    );
    expect(screen.queryByTestId(TID.allowAlways)).toBeNull();
    expect(screen.getByTestId(TID.allowProject)).toBeInTheDocument();
    cleanup();
    renderCard(cargoTest());
    expect(screen.getByTestId(TID.allowAlways)).toHaveTextContent("Always allow…");
  });

  it("opens an editor with the suggested rule; nothing is sent until it is confirmed", async () => {
    renderCard(cargoTest());
    expect(screen.queryByTestId(TID.alwaysEditor)).toBeNull();
    await userEvent.click(screen.getByTestId(TID.allowAlways));
    expect(screen.getByTestId(TID.alwaysTool)).toHaveTextContent("bash");
    const pattern = screen.getByTestId(TID.alwaysPattern);
    expect(pattern).toHaveValue("cargo test *");
    expect(pattern).not.toHaveAttribute("readonly");
    expect(pattern).toHaveFocus();
    expect(screen.getByTestId(TID.alwaysScope.project)).toBeChecked();
    expect(screen.queryByTestId(TID.alwaysExactNote)).toBeNull();
    expect(approveCalls()).toEqual([]);
  });

  it("sends remember=always with the edited rule and the chosen scope", async () => {
    const store = renderCard(cargoTest());
    await userEvent.click(screen.getByTestId(TID.allowAlways));
    const pattern = screen.getByTestId(TID.alwaysPattern);
    await userEvent.clear(pattern);
    await userEvent.type(pattern, "cargo test -p core *");
    await userEvent.click(screen.getByTestId(TID.alwaysScope.user));
    await userEvent.click(screen.getByTestId(TID.alwaysSave));
    expect(approveCalls()).toEqual([
      {
        conversationId: "c1",
        confirmId: "q-t1",
        approved: true,
        reason: null,
        remember: "always",
        always: { tool: "bash", pattern: "cargo test -p core *", scope: "user" },
      },
    ]);
    expect(screen.queryByTestId(TID.approvalDialog)).toBeNull();
    expect(store.getState().conversations["c1"]!.tools["t1"]!.status).toBe("running");
  });

  it("keeps this project by default, and sends no pattern for a tool without one", async () => {
    const mcp = { server: "db", tool: "query" };
    renderCard(makeConfirm({ toolName: "mcp__db__query", mcp, input: { sql: "select 1" }, preview: null, suggestedRule: { tool: "mcp__db__query" } }));
    expect(screen.getByTestId(TID.approvalDialog)).toHaveTextContent("Allow query from the MCP server db?");
    await userEvent.click(screen.getByTestId(TID.allowAlways));
    expect(screen.queryByTestId(TID.alwaysPattern)).toBeNull();
    expect(screen.getByTestId(TID.alwaysEditor)).toHaveTextContent("every call of this tool");
    await userEvent.click(screen.getByTestId(TID.alwaysSave));
    expect(approveCalls()).toEqual([
      expect.objectContaining({ approved: true, remember: "always", always: { tool: "mcp__db__query", pattern: null, scope: "project" } }),
    ]);
  });

  it("keeps the pattern read-only when only the exact command may be kept", async () => {
    renderCard(
      makeConfirm({ suggestedRule: { tool: "bash", pattern: "rm -rf build", exactOnly: true } }),
    );
    await userEvent.click(screen.getByTestId(TID.allowAlways));
    const pattern = screen.getByTestId(TID.alwaysPattern);
    expect(pattern).toHaveAttribute("readonly");
    expect(screen.getByTestId(TID.alwaysExactNote)).toHaveTextContent("Only this exact command can be kept");
    await userEvent.type(pattern, " *");
    expect(pattern).toHaveValue("rm -rf build");
    await userEvent.click(screen.getByTestId(TID.alwaysSave));
    expect(approveCalls()[0]).toMatchObject({ remember: "always", always: { tool: "bash", pattern: "rm -rf build", scope: "project" } });
  });

  it("offers a command that only reads the class @read-only, and one click keeps only its own program", async () => {
    renderCard(
      makeConfirm({
        input: { command: "git status" },
        preview: { kind: "command", command: "git status", cwd: "/p" },
        suggestedRule: { tool: "bash", pattern: "@read-only", narrower: "git status *" },
      }),
    );
    await userEvent.click(screen.getByTestId(TID.allowAlways));
    const pattern = screen.getByTestId(TID.alwaysPattern);
    expect(pattern).toHaveValue("@read-only");
    expect(screen.getByTestId(TID.alwaysReadOnly)).toHaveTextContent("every command that only reads");
    const narrower = screen.getByTestId(TID.alwaysNarrower);
    expect(narrower).toHaveTextContent("Only git status *");
    await userEvent.click(narrower);
    expect(pattern).toHaveValue("git status *");
    expect(screen.getByTestId(TID.alwaysNarrower)).toHaveTextContent("Every command that only reads");
    await userEvent.click(screen.getByTestId(TID.alwaysSave));
    expect(approveCalls()[0]).toMatchObject({ remember: "always", always: { tool: "bash", pattern: "git status *", scope: "project" } });
  });

  it("shows no read-only choice for a command offered its own prefix", async () => {
    renderCard(cargoTest());
    await userEvent.click(screen.getByTestId(TID.allowAlways));
    expect(screen.queryByTestId(TID.alwaysReadOnly)).toBeNull();
  });

  it("Cancel closes the editor and answers nothing; Esc in the pattern closes it without rejecting", async () => {
    renderCard(cargoTest());
    await userEvent.click(screen.getByTestId(TID.allowAlways));
    await userEvent.click(screen.getByTestId(TID.alwaysCancel));
    expect(screen.queryByTestId(TID.alwaysEditor)).toBeNull();
    expect(screen.getByTestId(TID.approvalDialog)).toBeInTheDocument();
    await userEvent.click(screen.getByTestId(TID.allowAlways));
    await userEvent.type(screen.getByTestId(TID.alwaysPattern), "{Enter}{Escape}");
    expect(screen.queryByTestId(TID.alwaysEditor)).toBeNull();
    expect(screen.getByTestId(TID.approvalDialog)).toBeInTheDocument();
    expect(approveCalls()).toEqual([]);
  });
});

describe("why a call asks", () => {
  it("says which step asked, and the rule it names", () => {
    renderCard(makeConfirm({ askedBecause: "ask_rule", rule: "ask bash: git push * (project)" }));
    expect(screen.getByTestId(TID.approvalWhy)).toHaveTextContent("One of your rules says to ask");
    expect(screen.getByTestId(TID.approvalRule)).toHaveTextContent("ask bash: git push * (project)");
  });

  it("lets the engine's own reason speak instead of the step", () => {
    const reason = "This command asks for the network, which Warden's sandbox otherwise blocks.";
    renderCard(makeConfirm({ askedBecause: "outside_box", reason }));
    expect(screen.getAllByTestId(TID.approvalWhy)).toHaveLength(1);
    expect(screen.getByTestId(TID.approvalWhy)).toHaveTextContent(reason);
    expect(screen.queryByTestId(TID.approvalRule)).toBeNull();
  });
});
