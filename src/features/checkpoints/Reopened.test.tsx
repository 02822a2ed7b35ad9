// A conversation reopened from its saved history: each result says what its call changed, as the
// engine answers `chat_history` (kept in the result's report, or read back from the checkpoint log
// for a conversation saved before results kept it), so the window pieces nothing together. The
// real ChatScreen, store and reducer; IPC answered as Rust answers.
import { render, screen, within } from "@testing-library/react";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { CheckpointInfo, HistoryMessage } from "../../shared/ipc";
import { ChatStoreProvider, createChatStore } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import { ChatScreen } from "../chat/ChatScreen";
import { change } from "./testEvents";

const HISTORY: HistoryMessage[] = [
  { role: "user", content: [{ type: "text", text: "Tidy the notes" }] },
  {
    role: "assistant",
    content: [{ type: "tool_use", id: "toolu_1", name: "bash", input: { command: "make tidy" }, rawArguments: null }],
  },
  {
    role: "user",
    content: [
      {
        type: "tool_result",
        toolUseId: "toolu_1",
        toolName: "bash",
        content: "ok",
        isError: false,
        report: {
          changes: { checkpointId: "cp-1", files: [change("notes/a.md", "modified", 3, 1), change("notes/old.md", "deleted", 0, 7)], error: null },
        },
      },
    ],
  },
  { role: "assistant", content: [{ type: "text", text: "Done." }] },
];

const info = (id: string, toolId: string | null, kind: CheckpointInfo["kind"] = "tool"): CheckpointInfo => ({
  id,
  createdAt: "2025-01-01T00:00:00.000Z",
  conversationId: "conv-old",
  messageId: "m1",
  toolId,
  toolName: toolId ? "bash" : null,
  kind,
  filesChanged: 2,
});

let calls: { cmd: string; args: Record<string, unknown> }[];
beforeEach(() => {
  localStorage.clear();
  calls = [];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    switch (cmd) {
      case "chat_list":
        return { conversations: [{ id: "conv-old", title: "Tidy", projectRoot: null, updatedAtMs: 1, messageCount: 4 }], nextOffset: null };
      case "chat_history":
        return HISTORY;
      case "checkpoint_list":
        return [info("cp-1", "toolu_1"), info("cp-end", null, "turn_end"), info("cp-other", "toolu_elsewhere")];
      case "checkpoint_changes":
        return [change("notes/a.md", "modified", 3, 1), change("notes/old.md", "deleted", 0, 7)];
      case "tools_catalog":
        return [];
      default:
        return null;
    }
  });
});

describe("a reopened conversation", () => {
  it("offers the restore and shows the turn's changes from the project's checkpoints", async () => {
    render(
      <ChatStoreProvider store={createChatStore()}>
        <ChatScreen onOpenSettings={() => {}} />
      </ChatStoreProvider>,
    );
    const restore = await screen.findByTestId(TID.restoreProject);
    expect(restore).toHaveAttribute("data-checkpoint-id", "cp-1");

    const summary = screen.getByTestId(TID.turnChanges);
    expect(summary).toHaveAttribute("data-files", "2");
    expect(summary).toHaveTextContent("2 files");
    expect(summary).toHaveTextContent("+3 −8");
    expect(within(summary).getAllByTestId(TID.fileChange).map((f) => f.getAttribute("data-path"))).toEqual(["notes/a.md", "notes/old.md"]);
    // One answer from the engine: no list of checkpoints placed on calls, no changes asked apart.
    expect(calls.map((c) => c.cmd)).not.toContain("checkpoint_list");
    expect(calls.map((c) => c.cmd)).not.toContain("checkpoint_changes");
  });
});
