// Settings → Hooks: the user's hooks by event, added, edited, removed, switched outside the box and
// imported from Claude Code's JSON; each change checked with `hooks_check` before it is saved.
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { useState } from "react";
import { beforeEach, describe, expect, it } from "vitest";
import type { HooksConfig, Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { HooksSection } from "./HooksSection";

let checked: HooksConfig[];

/** As the engine checks: an unknown event, or a matcher that is not an expression, would not run. */
function problemsOf(hooks: HooksConfig): string[] {
  const found: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd", "Notification"].includes(event)) {
      found.push(`\`${event}\` is not a hook event`);
    }
    for (const g of groups) {
      try {
        new RegExp(g.matcher ?? "");
      } catch {
        found.push(`${event}: the matcher \`${g.matcher}\` is not a valid expression`);
      }
    }
  }
  return found;
}

beforeEach(() => {
  checked = [];
  mockIPC((cmd, args) => {
    if (cmd === "hooks_check") {
      const hooks = (args as { hooks: HooksConfig }).hooks;
      checked.push(hooks);
      return problemsOf(hooks);
    }
    if (cmd === "hooks_project_offer") return null;
    throw new Error(`unexpected command ${cmd}`);
  });
});

const MINE: HooksConfig = {
  PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh", timeout: 30 }] }],
  Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }],
};

/** The section as Settings hold it: `saved` is every settings object it handed on (each one saved). */
function renderSection(initial: Settings) {
  const saved: Settings[] = [];
  function Harness() {
    const [settings, setSettings] = useState(initial);
    return (
      <HooksSection
        settings={settings}
        savedCount={saved.length}
        onChange={(s) => {
          saved.push(s);
          setSettings(s);
        }}
      />
    );
  }
  render(<Harness />);
  return saved;
}

const rows = () => screen.queryAllByTestId(TID.hookRow);

describe("Settings → Hooks", () => {
  it("lists the user's hooks by event with their matcher, command and time limit", () => {
    renderSection({ hooks: MINE, projectDir: null });
    const [pre, stop] = rows() as [HTMLElement, HTMLElement];
    expect(pre).toHaveAttribute("data-event", "PreToolUse");
    expect(pre).toHaveTextContent("for Bash");
    expect(pre).toHaveTextContent("./check.sh");
    expect(pre).toHaveTextContent("time limit 30 s");
    expect(stop).toHaveAttribute("data-event", "Stop");
    expect(stop).toHaveTextContent("notify-send done");
    expect(stop).toHaveTextContent("time limit 60 s");
    expect(screen.getByRole("heading", { name: "PreToolUse" })).toBeInTheDocument();
  });

  it("adds a hook once the engine finds nothing wrong with it", async () => {
    const saved = renderSection({ projectDir: null });
    expect(screen.getByText("No hooks of yours yet.")).toBeInTheDocument();
    await userEvent.click(screen.getByTestId(TID.hookAdd));
    await userEvent.selectOptions(screen.getByTestId(TID.hookFormEvent), "PostToolUse");
    await userEvent.type(screen.getByTestId(TID.hookFormMatcher), "Edit|Write");
    await userEvent.type(screen.getByTestId(TID.hookFormCommand), "npx prettier --write .");
    await userEvent.type(screen.getByTestId(TID.hookFormTimeout), "20");
    await userEvent.click(screen.getByTestId(TID.hookFormSave));
    const expected = { PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "npx prettier --write .", timeout: 20 }] }] };
    await waitFor(() => expect(saved.at(-1)?.hooks).toEqual(expected));
    expect(checked).toEqual([expected]);
    expect(rows()).toHaveLength(1);
    expect(screen.queryByTestId(TID.hookFormSave)).toBeNull();
  });

  it("edits a hook in its place and removes one", async () => {
    const saved = renderSection({ hooks: MINE, projectDir: null });
    await userEvent.click(within(rows()[0]!).getByTestId(TID.hookEdit));
    const command = screen.getByTestId(TID.hookFormCommand);
    expect(command).toHaveValue("./check.sh");
    await userEvent.clear(command);
    await userEvent.type(command, "./check.sh --strict");
    await userEvent.click(screen.getByTestId(TID.hookFormSave));
    await waitFor(() =>
      expect(saved.at(-1)?.hooks).toEqual({
        ...MINE,
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh --strict", timeout: 30 }] }],
      }),
    );
    await userEvent.click(within(rows()[1]!).getByTestId(TID.hookRemove));
    await waitFor(() => expect(saved.at(-1)?.hooks).toEqual({ PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./check.sh --strict", timeout: 30 }] }] }));
    expect(rows()).toHaveLength(1);
  });

  it("marks a hook to run outside the box, and says what that means", async () => {
    const saved = renderSection({ hooks: MINE, projectDir: null });
    expect(screen.queryByTestId(TID.hookOutsideWarning)).toBeNull();
    await userEvent.click(within(rows()[1]!).getByTestId(TID.hookOutsideBox));
    await waitFor(() => expect(saved.at(-1)?.hooks?.Stop?.[0]?.hooks[0]?.outsideBox).toBe(true));
    const warning = within(rows()[1]!).getByTestId(TID.hookOutsideWarning);
    expect(warning).toHaveTextContent("runs with your full access");
    expect(warning).toHaveTextContent("each run says so");
    // The form says it too, as soon as the switch is on.
    await userEvent.click(screen.getByTestId(TID.hookAdd));
    await userEvent.click(screen.getByTestId(TID.hookFormOutsideBox));
    expect(screen.getAllByTestId(TID.hookOutsideWarning)).toHaveLength(2);
  });

  it("does not save a hook the engine says would not run, and shows why", async () => {
    const saved = renderSection({ hooks: MINE, projectDir: null });
    await userEvent.click(screen.getByTestId(TID.hookAdd));
    await userEvent.type(screen.getByTestId(TID.hookFormMatcher), "Bash(");
    await userEvent.type(screen.getByTestId(TID.hookFormCommand), "./x.sh");
    await userEvent.click(screen.getByTestId(TID.hookFormSave));
    expect(await screen.findByTestId(TID.hooksProblems)).toHaveTextContent("PreToolUse: the matcher `Bash(` is not a valid expression");
    expect(saved).toEqual([]);
    // The form stays open with what was typed, to be fixed.
    expect(screen.getByTestId(TID.hookFormMatcher)).toHaveValue("Bash(");
  });

  it("imports a Claude Code settings.json, adding its hooks after the user's", async () => {
    const saved = renderSection({ hooks: MINE, projectDir: null });
    const file = {
      permissions: { allow: ["Bash(npm test)"] },
      hooks: {
        PreToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/lint.py", timeout: 60 }] }],
        SessionStart: [{ hooks: [{ type: "command", command: "cat NOTES.md" }] }],
      },
    };
    await userEvent.click(screen.getByText("Import JSON from Claude Code"));
    const field = screen.getByTestId(TID.hooksImport);
    await userEvent.click(field);
    await userEvent.paste(JSON.stringify(file, null, 2));
    await userEvent.click(screen.getByTestId(TID.hooksImportSave));
    const expected = {
      PreToolUse: [...MINE.PreToolUse!, ...file.hooks.PreToolUse],
      Stop: MINE.Stop,
      SessionStart: file.hooks.SessionStart,
    };
    await waitFor(() => expect(saved.at(-1)?.hooks).toEqual(expected));
    expect(field).toHaveValue("");
    expect(screen.getByText("Added 2 hooks.")).toBeInTheDocument();
    expect(rows().map((r) => r.dataset.event)).toEqual(["SessionStart", "PreToolUse", "PreToolUse", "Stop"]);
  });

  it("takes a bare hooks object too", async () => {
    const saved = renderSection({ projectDir: null });
    await userEvent.click(screen.getByText("Import JSON from Claude Code"));
    await userEvent.click(screen.getByTestId(TID.hooksImport));
    await userEvent.paste('{"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}');
    await userEvent.click(screen.getByTestId(TID.hooksImportSave));
    await waitFor(() => expect(saved.at(-1)?.hooks).toEqual({ Stop: [{ hooks: [{ type: "command", command: "say done" }] }] }));
  });

  it("blocks saving while the JSON does not parse, or while the engine finds problems in it", async () => {
    const saved = renderSection({ hooks: MINE, projectDir: null });
    await userEvent.click(screen.getByText("Import JSON from Claude Code"));
    const field = screen.getByTestId(TID.hooksImport);
    await userEvent.click(field);
    await userEvent.paste('{"hooks": {"PreToolUse": [');
    expect(screen.getByTestId(TID.hooksImportError)).toHaveTextContent("This is not JSON");
    expect(screen.getByTestId(TID.hooksImportSave)).toBeDisabled();

    await userEvent.clear(field);
    await userEvent.paste('{"hooks": {"PreToolUse": {"matcher": "Bash"}}}');
    expect(screen.getByTestId(TID.hooksImportError)).toHaveTextContent("`PreToolUse` should be a list of matchers");
    expect(screen.getByTestId(TID.hooksImportSave)).toBeDisabled();
    expect(checked).toEqual([]);

    await userEvent.clear(field);
    await userEvent.paste('{"hooks": {"BeforeEverything": [{"hooks": [{"type": "command", "command": "true"}]}]}}');
    expect(screen.queryByTestId(TID.hooksImportError)).toBeNull();
    await userEvent.click(screen.getByTestId(TID.hooksImportSave));
    expect(await screen.findByTestId(TID.hooksProblems)).toHaveTextContent("`BeforeEverything` is not a hook event");
    // Blocked until the text changes; nothing saved.
    expect(screen.getByTestId(TID.hooksImportSave)).toBeDisabled();
    expect(checked).toHaveLength(1);
    expect(saved).toEqual([]);
    expect(field).toHaveValue('{"hooks": {"BeforeEverything": [{"hooks": [{"type": "command", "command": "true"}]}]}}');
  });
});
