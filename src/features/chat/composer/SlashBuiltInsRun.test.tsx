// The built-in slash commands run from the composer: the text is cleared and nothing reaches the
// engine; each does what it names in the window (the real conversation view, store and controls).
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ConventionsInUse } from "../../../shared/ipc";
import { createChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { renderConversation } from "../../../test/renderConversation";
import { C, textTurn } from "../../checkpoints/testEvents";
import { resetPlanModeForTests } from "../../plan/planMode";
import { resetDraftsForTests } from "./drafts";
import { BUILT_INS } from "./slashCommands";

const FOUND: ConventionsInUse = {
  commands: [{ name: "review", description: "Review the changes", argumentHint: "[files]", origin: "project", path: "/p/review.md" }],
  skills: [{ name: "pdf", description: "Fill PDF forms", origin: "agents", path: "/home/me/.agents/skills/pdf", on: true }],
  problems: [],
};

let calls: { cmd: string; args: Record<string, unknown> }[];

beforeEach(() => {
  localStorage.clear();
  resetDraftsForTests();
  resetPlanModeForTests();
  calls = [];
  mockIPC((cmd, args) => {
    calls.push({ cmd, args: (args ?? {}) as Record<string, unknown> });
    if (cmd === "conventions_list") return FOUND;
    if (cmd === "provider_models" || cmd === "usage_days") return [];
    return null;
  });
});

const field = () => screen.getByTestId(TID.composerInput);
const toEngine = () => calls.filter((c) => c.cmd === "chat_send" || c.cmd === "chat_compact").map((c) => c.cmd);

async function renderView({ turns = 0 } = {}) {
  const store = createChatStore();
  for (let i = 1; i <= turns; i++) store.dispatchMany(textTurn(i));
  const actions = { newConversation: vi.fn(), openSettingsAt: vi.fn() };
  const modelChoice = { provider: "anthropic" as const, model: null, onChange: vi.fn(async () => undefined) };
  renderConversation(store, { conversationId: C, slash: { projectDir: "/p", actions }, modelChoice });
  await waitFor(() => expect(calls.some((c) => c.cmd === "conventions_list")).toBe(true));
  return { user: userEvent.setup(), actions };
}

describe("built-in slash commands", () => {
  it("/clear starts a new conversation: the text is cleared, nothing is sent", async () => {
    const { user, actions } = await renderView();
    await user.type(field(), "/clear{Enter}");
    expect(actions.newConversation).toHaveBeenCalledTimes(1);
    expect(field()).toHaveValue("");
    expect(toEngine()).toEqual([]);
  });

  it("a built-in typed with a space after it runs when sent, as from the Send button", async () => {
    const { user, actions } = await renderView();
    await user.type(field(), "/clear {Enter}");
    expect(actions.newConversation).toHaveBeenCalledTimes(1);
    expect(toEngine()).toEqual([]);
  });

  it("/help lists the built-ins, the custom commands and the skills with what they say of themselves", async () => {
    const { user } = await renderView();
    await user.type(field(), "/help{Enter}");
    const help = await screen.findByTestId(TID.slashHelp);
    for (const b of BUILT_INS) expect(help).toHaveTextContent(`/${b.name}`);
    expect(help).toHaveTextContent("/review [files]");
    expect(help).toHaveTextContent("Review the changes");
    expect(help).toHaveTextContent("/pdf");
    expect(help).toHaveTextContent("Fill PDF forms");
    expect(field()).toHaveValue("");
    expect(toEngine()).toEqual([]);
    // Esc in the field closes it (and stops nothing).
    await user.keyboard("{Escape}");
    expect(screen.queryByTestId(TID.slashPanel)).toBeNull();
  });

  it("the panel closes with its × and the caret goes back to the field", async () => {
    const { user } = await renderView();
    await user.type(field(), "/help{Enter}");
    await user.click(screen.getByTestId(TID.slashPanelClose));
    expect(screen.queryByTestId(TID.slashPanel)).toBeNull();
    expect(field()).toHaveFocus();
  });

  it("/plan turns plan mode on and says so; the next message goes in plan mode", async () => {
    const { user } = await renderView();
    expect(screen.getByTestId(TID.planToggle)).toHaveAttribute("aria-pressed", "false");
    await user.type(field(), "/plan{Enter}");
    const panel = screen.getByTestId(TID.slashPanel);
    expect(panel).toHaveAttribute("data-panel", "notice");
    expect(within(panel).getByRole("status")).toHaveTextContent(/^Plan mode is on: the model only reads/);
    expect(screen.getByTestId(TID.planToggle)).toHaveAttribute("aria-pressed", "true");
    expect(toEngine()).toEqual([]);
    await user.type(field(), "Look around{Enter}");
    await waitFor(() => expect(toEngine()).toEqual(["chat_send"]));
    expect(calls.find((c) => c.cmd === "chat_send")!.args).toMatchObject({ content: "Look around", plan: true, approvedPlan: null });
  });

  it("/cost shows this conversation's cost above the composer", async () => {
    const { user } = await renderView({ turns: 1 });
    await user.type(field(), "/cost{Enter}");
    const panel = screen.getByTestId(TID.slashPanel);
    expect(within(panel).getByTestId(TID.costReport)).toBeInTheDocument();
    expect(within(panel).getByTestId(TID.costReportConversation)).toHaveTextContent("This conversation");
  });

  it("/permissions opens Settings at the permissions", async () => {
    const { user, actions } = await renderView();
    await user.type(field(), "/permissions{Enter}");
    expect(actions.openSettingsAt).toHaveBeenCalledWith("permissions");
  });

  it("/compact presses Compact now; with nothing said yet it says so", async () => {
    const first = await renderView();
    await first.user.type(field(), "/compact{Enter}");
    expect(screen.getByTestId(TID.slashPanel)).toHaveTextContent("There is nothing to compact yet.");
    expect(toEngine()).toEqual([]);
  });

  it("/compact compacts a conversation with history", async () => {
    const { user } = await renderView({ turns: 2 });
    await user.type(field(), "/compact{Enter}");
    await waitFor(() => expect(toEngine()).toEqual(["chat_compact"]));
    expect(calls.find((c) => c.cmd === "chat_compact")!.args).toEqual({ conversationId: C });
  });

  it("/model opens the model switch", async () => {
    const { user } = await renderView();
    await user.type(field(), "/model{Enter}");
    expect(screen.getByTestId(TID.modelSwitch)).toHaveFocus();
  });

  it("/rewind opens the rewind of the last message written, at its question", async () => {
    const { user } = await renderView({ turns: 2 });
    await user.type(field(), "/rewind{Enter}");
    await waitFor(() => expect(screen.getByTestId(TID.rewindConfirm)).toHaveFocus());
    expect(screen.getAllByTestId(TID.rewindConfirm)).toHaveLength(1);
    const lastUser = screen.getAllByTestId(TID.message).filter((m) => m.dataset.role === "user")[1]!;
    expect(within(lastUser).getByTestId(TID.rewindConfirm)).toBeInTheDocument();
    // Asked, not done: the user still chooses.
    expect(calls.some((c) => c.cmd === "chat_rewind")).toBe(false);
  });

  it("/rewind with nothing written yet says so", async () => {
    const { user } = await renderView();
    await user.type(field(), "/rewind{Enter}");
    expect(screen.getByTestId(TID.slashPanel)).toHaveTextContent("There is no message of yours to rewind to yet.");
  });
});
