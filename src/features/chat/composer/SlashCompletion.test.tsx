// Slash commands in the composer as the user meets them: the real conversation view and store, the
// Tauri IPC answered as the Rust commands answer. The completion list (what it offers, the keys, the
// mouse), when the list is asked for, and what is sent as typed.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { ConventionsInUse } from "../../../shared/ipc";
import { createChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { renderConversation } from "../../../test/renderConversation";
import { resetDraftsForTests } from "./drafts";
import { BUILT_INS } from "./slashCommands";
import { remotePlace } from "../../../shared/projectPlace";

const C = "conv-slash";

const FOUND: ConventionsInUse = {
  commands: [
    {
      name: "review",
      description: "Review the changes",
      argumentHint: "[files]",
      origin: "project",
      path: "/p/.claude/commands/review.md",
    },
  ],
  skills: [
    { name: "pdf", description: "Fill PDF forms", origin: "agents", path: "/home/me/.agents/skills/pdf", on: true },
    { name: "retired", description: "Switched off", origin: "warden", path: "/cfg/skills/retired", on: false },
  ],
  problems: [],
};

let calls: { cmd: string; args: Record<string, unknown> }[];

beforeEach(() => {
  localStorage.clear();
  resetDraftsForTests();
  calls = [];
  mockIPC((cmd, args) => {
    calls.push({ cmd, args: (args ?? {}) as Record<string, unknown> });
    if (cmd === "conventions_list") return FOUND;
    return null;
  });
});

const asked = () => calls.filter((c) => c.cmd === "conventions_list").length;
const sends = () => calls.filter((c) => c.cmd === "chat_send").map((c) => c.args.content);
const field = () => screen.getByTestId(TID.composerInput) as HTMLTextAreaElement;
const names = () => screen.queryAllByTestId(TID.slashOption).map((o) => o.dataset.name);

/** The view with the commands loaded. */
async function renderView(projectDir: string | null = "/p") {
  const user = userEvent.setup();
  renderConversation(createChatStore(), { conversationId: C, slash: { projectDir } });
  // Without a project there is nothing to ask.
  await waitFor(() => expect(asked()).toBe(projectDir === null ? 0 : 1));
  return user;
}

describe("over a remote project's conversation", () => {
  it("offers that project's commands and skills, read there, and not this machine's", async () => {
    const user = userEvent.setup();
    const THERE: ConventionsInUse = {
      commands: [{ name: "deploy", description: "Ship it there", argumentHint: null, origin: "project", path: "/srv/app/.claude/commands/deploy.md" }],
      skills: [],
      problems: [],
    };
    mockIPC((cmd, args) => {
      calls.push({ cmd, args: (args ?? {}) as Record<string, unknown> });
      if (cmd === "remote_conventions") return THERE;
      if (cmd === "conventions_list") return FOUND;
      return null;
    });
    const place = remotePlace("conv-remote", "build-box:/srv/app", "build-box");
    renderConversation(createChatStore(), { conversationId: C, slash: { projectDir: "/p", place } });
    await user.type(field(), "/");
    await waitFor(() => expect(names()).toEqual([...BUILT_INS.map((b) => b.name), "deploy"]));
    expect(calls.find((c) => c.cmd === "remote_conventions")?.args).toEqual({ conversationId: "conv-remote" });
    expect(asked()).toBe(0);
  });

  it("offers only the built-ins while the remote project is not linked", async () => {
    const user = userEvent.setup();
    renderConversation(createChatStore(), { conversationId: C, slash: { projectDir: "/p", place: null } });
    await user.type(field(), "/");
    await waitFor(() => expect(names()).toEqual(BUILT_INS.map((b) => b.name)));
    expect(calls.filter((c) => c.cmd.includes("conventions"))).toEqual([]);
  });
});

describe("the completion list", () => {
  it("offers the built-ins, then the commands, then the skills switched on, each marked", async () => {
    const user = await renderView();
    expect(field()).toHaveAttribute("aria-expanded", "false");
    await user.type(field(), "/");
    await waitFor(() => expect(names()).toEqual([...BUILT_INS.map((b) => b.name), "review", "pdf"]));
    expect(screen.getByRole("listbox", { name: "Commands and skills" })).toBeVisible();
    expect(field()).toHaveAttribute("aria-expanded", "true");
    const review = screen.getByRole("option", { name: /review/ });
    expect(review).toHaveTextContent("[files]");
    expect(review).toHaveTextContent("Review the changes");
    expect(review).toHaveTextContent("project");
    expect(screen.getByRole("option", { name: /pdf/ })).toHaveTextContent("skill");
  });

  it("filters by the name typed, whatever its case, and closes when nothing matches", async () => {
    const user = await renderView();
    await user.type(field(), "/RE");
    expect(names()).toEqual(["rewind", "review"]);
    await user.type(field(), "vi");
    expect(names()).toEqual(["review"]);
    await user.type(field(), "x");
    expect(screen.queryByTestId(TID.slashList)).toBeNull();
    expect(field()).toHaveAttribute("aria-expanded", "false");
  });

  it("opens only while the caret is in the first word", async () => {
    const user = await renderView();
    await user.type(field(), "/review files");
    expect(screen.queryByTestId(TID.slashList)).toBeNull();
    field().setSelectionRange(3, 3);
    fireEvent.select(field());
    expect(names()).toEqual(["review"]);
  });

  it("↓ and ↑ move the choice the field points at; Tab completes it with a space, the caret after it", async () => {
    const user = await renderView();
    await user.type(field(), "/re");
    const [rewind, review] = screen.getAllByRole("option");
    expect(field()).toHaveAttribute("aria-activedescendant", rewind!.id);
    expect(rewind).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{ArrowDown}");
    expect(field()).toHaveAttribute("aria-activedescendant", review!.id);
    expect(review).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{ArrowDown}");
    expect(field()).toHaveAttribute("aria-activedescendant", rewind!.id);
    await user.keyboard("{ArrowUp}");
    expect(field()).toHaveAttribute("aria-activedescendant", review!.id);
    await user.keyboard("{Tab}");
    expect(field()).toHaveValue("/review ");
    expect(field()).toHaveFocus();
    expect(field().selectionStart).toBe("/review ".length);
    expect(screen.queryByTestId(TID.slashList)).toBeNull();
    expect(field()).not.toHaveAttribute("aria-activedescendant");
    // What is typed next is the command's arguments.
    await user.type(field(), "src");
    expect(field()).toHaveValue("/review src");
  });

  it("Enter completes a name typed in part (nothing is sent)", async () => {
    const user = await renderView();
    await user.type(field(), "/rev{Enter}");
    expect(field()).toHaveValue("/review ");
    expect(sends()).toEqual([]);
  });

  it("Esc closes the list and keeps the text; typing opens it again", async () => {
    const user = await renderView();
    await user.type(field(), "/re");
    await user.keyboard("{Escape}");
    expect(screen.queryByTestId(TID.slashList)).toBeNull();
    expect(field()).toHaveValue("/re");
    expect(field()).toHaveAttribute("aria-expanded", "false");
    await user.type(field(), "v");
    expect(names()).toEqual(["review"]);
  });

  it("a click chooses an entry", async () => {
    const user = await renderView();
    await user.type(field(), "/p");
    await user.click(screen.getByRole("option", { name: /pdf/ }));
    expect(field()).toHaveValue("/pdf ");
    expect(field()).toHaveFocus();
  });

  it("offers only the built-ins without a project folder (a conversation without one has no commands or skills)", async () => {
    const user = await renderView(null);
    await user.type(field(), "/");
    expect(names()).toEqual(BUILT_INS.map((b) => b.name));
  });
});

describe("the commands and skills offered", () => {
  it("are asked for when the composer mounts and when the window gets the focus back, not per keystroke", async () => {
    const user = await renderView();
    await user.type(field(), "/review some files");
    expect(asked()).toBe(1);
    fireEvent.focus(window);
    await waitFor(() => expect(asked()).toBe(2));
  });
});

describe("what is sent as typed", () => {
  it("a message starting with a slash that names no command (the engine does the same)", async () => {
    const user = await renderView();
    await user.type(field(), "/usr/bin is missing{Enter}");
    await waitFor(() => expect(sends()).toEqual(["/usr/bin is missing"]));
    expect(field()).toHaveValue("");
  });

  it("a custom command with its arguments: the engine expands it", async () => {
    const user = await renderView();
    await user.type(field(), "/review src/main.rs{Enter}");
    await waitFor(() => expect(sends()).toEqual(["/review src/main.rs"]));
  });
});
