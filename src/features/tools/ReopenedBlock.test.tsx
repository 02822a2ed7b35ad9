// A command's block in a conversation reopened from its saved history shows what the live block
// showed: how it ended, how long it took, and the box it ran in (the engine keeps the result's
// report in the history).
import { render, screen } from "@testing-library/react";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { HistoryMessage } from "../../shared/ipc";
import { initialChatState, reduce } from "../../shared/store/reducer";
import { TID } from "../../shared/testids";
import { ToolCallBlock } from "./ToolCallBlock";

const reopened = (history: HistoryMessage[]) => {
  const s = reduce(initialChatState, { type: "history-loaded", conversationId: "c", history });
  const tool = s.conversations["c"]?.tools["t1"];
  if (!tool) throw new Error("no block for t1");
  return tool;
};

const ran = (result: Partial<Extract<HistoryMessage["content"][number], { type: "tool_result" }>>): HistoryMessage[] => [
  { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "bash", input: { command: "make" }, rawArguments: null }] },
  { role: "user", content: [{ type: "tool_result", toolUseId: "t1", toolName: "bash", content: "boom\n[the command ended with exit code 2]", isError: true, ...result }] },
];

// A saved history names the tool only: the engine's catalog says it runs commands.
beforeEach(() => {
  mockIPC((cmd) => {
    if (cmd !== "tools_catalog") throw new Error(`unexpected ${cmd}`);
    return [{ name: "bash", label: "Run commands", category: "exec", danger: "dangerous", inDefaultScope: false }];
  });
});

describe("a reopened command", () => {
  it("keeps its exit code, its duration and its box badge", async () => {
    const report = { durationMs: 2500, command: { exitCode: 2 }, sandbox: { contained: true, summary: "no network · writes: project" } };
    render(<ToolCallBlock tool={reopened(ran({ code: "EXECUTION_ERROR", report }))} />);
    expect(await screen.findByTestId(TID.commandTail)).toHaveTextContent("exit 2 · 2.5 s");
    expect(screen.getByTestId(TID.toolSandbox)).toHaveTextContent("🛡 no network · writes: project");
  });

  it("saved before results kept their report, shows its text and no made-up ending", async () => {
    render(<ToolCallBlock tool={reopened(ran({}))} />);
    expect(await screen.findByTestId(TID.commandTail)).toHaveTextContent("[the command ended with exit code 2]");
    expect(screen.getByTestId(TID.commandTail)).not.toHaveAttribute("data-exit-code");
    expect(screen.queryByTestId(TID.toolSandbox)).toBeNull();
  });
});
