// The checkpoint parts of a conversation as the user sees them: the real store and reducer fed
// the engine's events, the real components, and the Tauri IPC answered the way the Rust
// commands answer (a refusal is the typed error they send).
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { RestorePlan, RestoreReport } from "../../shared/ipc";
import { ChatStoreProvider, createChatStore, type ChatStore } from "../../shared/store/store";
import type { Action } from "../../shared/store/types";
import { TID } from "../../shared/testids";
import { ConversationView } from "../chat/transcript/ConversationView";
import { C, call, change, streamEnd, streamStart, userSend } from "./testEvents";

type Handler = (args: Record<string, unknown>) => unknown;
let calls: { cmd: string; args: Record<string, unknown> }[];
let store: ChatStore;

function mock(handlers: Record<string, Handler>) {
  calls = [];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    const h = handlers[cmd] ?? (cmd === "tools_catalog" ? () => [] : undefined);
    if (!h) throw new Error(`unexpected command ${cmd}`);
    return h(a);
  });
}

const restores = () => calls.filter((c) => c.cmd === "checkpoint_restore").map((c) => c.args);
const plans = () => calls.filter((c) => c.cmd === "checkpoint_restore_plan").map((c) => c.args);
/** What the engine answers when asked what a restore would do. */
const PLAN: RestorePlan = { files: [change("a.txt", "modified", 1, 1), change("b.txt", "deleted", 0, 1)], running: [] };

/** Say yes to the restore shown. */
async function confirm(inside: HTMLElement) {
  const shown = await within(inside).findByTestId(TID.restoreConfirm);
  await userEvent.click(within(shown).getByTestId(TID.restoreConfirmYes));
}
const report = (restored: string, undo: string, paths: string[]): RestoreReport => ({
  restored,
  undoCheckpointId: undo,
  files: paths.map((p) => change(p, "modified")),
});

const PATCH =
  "diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n" +
  "diff --git a/b.txt b/b.txt\nnew file mode 100644\n--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+new\n";

// A finished turn whose command changed two files, and one whose write had no checkpoint.
const TURN: Action[] = [
  userSend("u1", "Tidy up"),
  streamStart("a1"),
  ...call("a1", "t1", { checkpointId: "cp-1", files: [change("a.txt", "modified", 1, 1), change("b.txt", "created", 1, 0)] }),
  ...call("a1", "t2", { checkpointId: null, files: [], error: "the store is locked" }, "file_write"),
  streamEnd("a1"),
];

function renderConversation(actions: Action[] = TURN) {
  store = createChatStore();
  store.dispatchMany(actions);
  return render(
    <ChatStoreProvider store={store}>
      <ConversationView conversationId={C} />
    </ChatStoreProvider>,
  );
}

const toolBlock = (toolId: string) => screen.getAllByTestId(TID.toolBlock).find((b) => b.getAttribute("data-tool-id") === toolId)!;

beforeEach(() => mock({}));

describe("what a call changed", () => {
  it("shows the files a command changed, with lines added and removed, on a click", async () => {
    renderConversation();
    const block = toolBlock("t1");
    const changes = within(block).getByTestId(TID.callChanges);
    expect(changes).toHaveTextContent("Changed 2 files");
    expect(changes).toHaveTextContent("+2 −1");
    expect(within(block).queryAllByTestId(TID.fileChange)).toHaveLength(0);
    await userEvent.click(within(block).getByTestId(TID.callChangesToggle));
    const files = within(block).getAllByTestId(TID.fileChange);
    expect(files.map((f) => [f.getAttribute("data-path"), f.getAttribute("data-status")])).toEqual([
      ["a.txt", "modified"],
      ["b.txt", "created"],
    ]);
    expect(files[0]).toHaveTextContent("+1 −1");
  });

  it("says when no checkpoint covers a change, and nothing for a call that cannot change files", () => {
    renderConversation([...TURN, userSend("u2"), streamStart("a2"), ...call("a2", "t3", null, "file_read"), streamEnd("a2")]);
    expect(within(toolBlock("t2")).getByTestId(TID.callChangesNone)).toHaveTextContent("No checkpoint for this change");
    expect(within(toolBlock("t3")).queryByTestId(TID.callChanges)).toBeNull();
    expect(within(toolBlock("t3")).queryByTestId(TID.callChangesNone)).toBeNull();
  });
});

describe("a turn's changes", () => {
  it("sums the turn and opens its diff from the turn's first checkpoint to now, file by file", async () => {
    // The project as the diff reads it: a.txt's change goes with its revert and comes back with the undo.
    let aReverted = false;
    const B_ONLY = PATCH.slice(PATCH.indexOf("diff --git a/b.txt"));
    mock({
      checkpoint_patch: () => (aReverted ? B_ONLY : PATCH),
      checkpoint_restore_plan: () => ({ files: [change("a.txt", "modified", 1, 1)], running: [] }),
      checkpoint_restore: (args) => {
        aReverted = args.id === "cp-1";
        return report("cp-1", "undo-a", ["a.txt"]);
      },
    });
    renderConversation();
    const summary = screen.getByTestId(TID.turnChanges);
    expect(summary).toHaveTextContent("Changes");
    expect(summary).toHaveTextContent("2 files");
    expect(summary).toHaveTextContent("+2 −1");
    expect(summary).toHaveTextContent("One change had no checkpoint");

    await userEvent.click(within(summary).getByTestId(TID.turnDiffOpen));
    await waitFor(() => expect(screen.getAllByTestId(TID.turnDiffFile)).toHaveLength(2));
    expect(calls).toContainEqual({ cmd: "checkpoint_patch", args: { conversationId: "conv-1", fromId: "cp-1", toId: null, path: null } });
    const [a, b] = screen.getAllByTestId(TID.turnDiffFile);
    expect(a).toHaveAttribute("data-path", "a.txt");
    expect(within(a!).getByTestId(TID.diffView)).toHaveTextContent("TWO");
    expect(within(b!).getByTestId(TID.diffView)).toHaveTextContent("new");
    expect(within(a!).getByTestId(TID.diffView)).not.toHaveTextContent("new");

    await userEvent.click(within(a!).getByTestId(TID.revertFile));
    await confirm(a!);
    await waitFor(() => expect(within(a!).getByTestId(TID.restoreNote)).toHaveTextContent("Restored a.txt"));
    expect(plans()).toEqual([{ conversationId: "conv-1", id: "cp-1", paths: ["a.txt"] }]);
    expect(restores()).toEqual([{ conversationId: "conv-1", id: "cp-1", paths: ["a.txt"], force: false, stopRunning: true }]);
    // The diff is read again: the reverted file's change is gone from it, its section stays for Undo.
    await waitFor(() => expect(within(a!).queryByTestId(TID.diffView)).toBeNull());
    expect(within(a!).getByTestId(TID.restoreNote)).toHaveTextContent("Restored a.txt");
    expect(within(b!).getByTestId(TID.diffView)).toHaveTextContent("new");
    await userEvent.click(within(a!).getByTestId(TID.restoreUndo));
    await confirm(a!);
    await waitFor(() => expect(within(a!).getByTestId(TID.restoreNote)).toHaveAttribute("data-phase", "undone"));
    expect(restores()[1]).toEqual({ conversationId: "conv-1", id: "undo-a", paths: ["a.txt"], force: false, stopRunning: true });
    await waitFor(() => expect(within(a!).getByTestId(TID.diffView)).toHaveTextContent("TWO"));
  });

  it("ends a turn's diff at the next turn's first checkpoint", async () => {
    mock({ checkpoint_patch: () => PATCH });
    renderConversation([
      ...TURN,
      userSend("u2"),
      streamStart("a2"),
      ...call("a2", "t9", { checkpointId: "cp-9", files: [change("c.txt")] }),
      streamEnd("a2"),
    ]);
    const [first, second] = screen.getAllByTestId(TID.turnChanges);
    expect(first).toHaveAttribute("data-to", "cp-9");
    expect(second).toHaveAttribute("data-from", "cp-9");
    await userEvent.click(within(first!).getByTestId(TID.turnDiffOpen));
    await waitFor(() => expect(calls).toContainEqual({ cmd: "checkpoint_patch", args: { conversationId: "conv-1", fromId: "cp-1", toId: "cp-9", path: null } }));
  });

  it("shows why the diff could not be read", async () => {
    mock({ checkpoint_patch: () => Promise.reject({ code: "INVALID_INPUT", message: "There is no checkpoint `cp-1` in this project" }) });
    renderConversation();
    await userEvent.click(screen.getByTestId(TID.turnDiffOpen));
    await waitFor(() => expect(screen.getByTestId(TID.turnDiff)).toHaveTextContent("There is no checkpoint"));
  });
});

describe("restore the project to before a message", () => {
  it("refuses over files changed outside Warden, names them, restores anyway, and undoes", async () => {
    let n = 0;
    mock({
      checkpoint_restore_plan: () => PLAN,
      checkpoint_restore: (a) => {
        n++;
        if (n === 1) {
          return Promise.reject({ code: "CHANGED_OUTSIDE", message: "Not restored: a file was changed", paths: ["notes.md"] });
        }
        return a.id === "cp-1" ? report("cp-1", "undo-1", ["a.txt", "b.txt"]) : report("undo-1", "undo-2", ["a.txt", "b.txt"]);
      },
    });
    renderConversation();
    const user = screen.getAllByTestId(TID.message).find((m) => m.getAttribute("data-role") === "user")!;
    const button = within(user).getByTestId(TID.restoreProject);
    expect(button).toHaveTextContent("Restore project to before this message");
    expect(button).toHaveAttribute("data-checkpoint-id", "cp-1");

    await userEvent.click(button);
    await confirm(user);
    const refused = await within(user).findByTestId(TID.restoreRefused);
    expect(refused).toHaveTextContent("notes.md");
    expect(refused).toHaveTextContent("changed since Warden's last checkpoint by something other than Warden");
    expect(restores()).toEqual([{ conversationId: "conv-1", id: "cp-1", paths: [], force: false, stopRunning: true }]);

    await userEvent.click(within(refused).getByTestId(TID.restoreForce));
    const note = await within(user).findByTestId(TID.restoreNote);
    expect(note).toHaveTextContent("Restored the project to before this message (2 files).");
    expect(restores()[1]).toEqual({ conversationId: "conv-1", id: "cp-1", paths: [], force: true, stopRunning: true });

    await userEvent.click(within(note).getByTestId(TID.restoreUndo));
    await confirm(user);
    await waitFor(() => expect(within(user).getByTestId(TID.restoreNote)).toHaveAttribute("data-phase", "undone"));
    expect(restores()[2]).toEqual({ conversationId: "conv-1", id: "undo-1", paths: [], force: false, stopRunning: true });
    // The conversation itself is left as it was.
    expect(store.getState().conversations[C]!.messageIds).toEqual(["u1", "a1"]);
  });

  it("goes to the next turn's checkpoint when the message's own turn changed nothing", () => {
    renderConversation([
      userSend("u0", "Just look"),
      streamStart("a0"),
      ...call("a0", "t0", null, "file_read"),
      streamEnd("a0"),
      ...TURN,
    ]);
    const buttons = screen.getAllByTestId(TID.restoreProject);
    expect(buttons.map((b) => b.getAttribute("data-checkpoint-id"))).toEqual(["cp-1", "cp-1"]);
  });

  it("is offered only once Warden took a checkpoint, and not while a turn runs", async () => {
    renderConversation([userSend("u1"), streamStart("a1"), ...call("a1", "t1", null, "file_read"), streamEnd("a1")]);
    expect(screen.queryByTestId(TID.restoreProject)).toBeNull();
    act(() => {
      store.dispatchMany([userSend("u2"), streamStart("a2"), ...call("a2", "t2", { checkpointId: "cp-2", files: [change("x")] })]);
    });
    const buttons = screen.getAllByTestId(TID.restoreProject);
    expect(buttons).toHaveLength(2);
    buttons.forEach((b) => expect(b).toBeDisabled());
    act(() => store.dispatch(streamEnd("a2")));
    screen.getAllByTestId(TID.restoreProject).forEach((b) => expect(b).toBeEnabled());
  });

  it("says so when a turn still runs in the project", async () => {
    mock({
      checkpoint_restore_plan: () => PLAN,
      checkpoint_restore: () => Promise.reject({ code: "TURN_RUNNING", message: "A turn is running in this project: restore once it has ended." }),
    });
    renderConversation();
    await userEvent.click(screen.getByTestId(TID.restoreProject));
    await confirm(document.body);
    expect(await screen.findByTestId(TID.restoreError)).toHaveTextContent("A turn is running in this project");
    expect(screen.queryByTestId(TID.restoreForce)).toBeNull();
  });

  it("shows every file a restore would touch and what it stops, and does nothing on Cancel", async () => {
    mock({
      checkpoint_restore_plan: () => ({
        files: [change("a.txt", "modified", 1, 1), change("made-later.txt", "deleted", 0, 3), change("gone.txt", "created", 2, 0)],
        running: [
          { kind: "command", name: "npm run dev", conversationId: C },
          { kind: "mcp_server", name: "docs" },
        ],
      }),
    });
    renderConversation();
    await userEvent.click(screen.getByTestId(TID.restoreProject));
    const shown = await screen.findByTestId(TID.restoreConfirm);
    expect(shown).toHaveTextContent("Restore the project to before this message?");
    expect(shown).toHaveTextContent("1 file changed, 1 created, 1 deleted.");
    const files = within(shown).getAllByTestId(TID.fileChange);
    expect(files.map((f) => [f.getAttribute("data-path"), f.getAttribute("data-status")])).toEqual([
      ["a.txt", "modified"],
      ["made-later.txt", "deleted"],
      ["gone.txt", "created"],
    ]);
    const running = within(shown).getByTestId(TID.restoreRunning);
    expect(running).toHaveTextContent("npm run dev");
    expect(running).toHaveTextContent("background command");
    expect(running).toHaveTextContent("docs");
    expect(running).toHaveTextContent("MCP server");
    await userEvent.click(within(shown).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByTestId(TID.restoreConfirm)).toBeNull();
    expect(restores()).toEqual([]);
  });
});
