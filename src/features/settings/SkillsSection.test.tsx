// Settings → Skills: the skills with where they came from and their switch (saved by the engine,
// back as it was with the reason when that fails), the custom commands, the files left out, and
// what the section says when there are none.
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ConventionsInUse } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { SkillsSection } from "./SkillsSection";

let calls: { cmd: string; args: Record<string, unknown> }[];
let found: ConventionsInUse;
let refuse: string | null;

beforeEach(() => {
  calls = [];
  refuse = null;
  found = {
    skills: [
      { name: "pdf", description: "Fill PDF forms", origin: "agents", path: "/home/me/.agents/skills/pdf", on: true },
      { name: "release", description: "Cut a release", origin: "project", path: "/p/.claude/skills/release", on: false },
    ],
    commands: [
      {
        name: "review",
        description: "Review the changes",
        argumentHint: "[files]",
        origin: "warden",
        path: "/home/me/.config/warden/commands/review.md",
      },
    ],
    problems: [{ path: "/p/.agents/skills/broken", message: "SKILL.md has no description" }],
  };
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    if (cmd === "conventions_list") return found;
    if (cmd === "skill_switch") {
      if (refuse) throw { code: "INTERNAL", message: refuse };
      return null;
    }
    throw new Error(`unexpected command ${cmd}`);
  });
});

const row = (name: string) => screen.getAllByTestId(TID.skillRow).find((r) => r.dataset.name === name)!;
const switchOf = (name: string) => within(row(name)).getByTestId(TID.skillSwitch);
const switches = () => calls.filter((c) => c.cmd === "skill_switch").map((c) => c.args);

function renderSection(over: Partial<Parameters<typeof SkillsSection>[0]> = {}) {
  const beforeChange = vi.fn(async () => undefined);
  const onChanged = vi.fn();
  render(<SkillsSection projectDir="/p" savedCount={0} beforeChange={beforeChange} onChanged={onChanged} {...over} />);
  return { beforeChange, onChanged };
}

describe("Settings → Skills", () => {
  it("lists each skill with its description, origin, folder and state, the commands and the files left out", async () => {
    renderSection();
    await screen.findAllByTestId(TID.skillRow);
    expect(row("pdf")).toHaveTextContent("Fill PDF forms");
    expect(row("pdf")).toHaveTextContent("from ~/.agents");
    expect(row("pdf")).toHaveTextContent("/home/me/.agents/skills/pdf");
    expect(switchOf("pdf")).toBeChecked();
    expect(row("release")).toHaveTextContent("from this project");
    expect(switchOf("release")).not.toBeChecked();
    expect(row("release")).toHaveTextContent("Off");

    const command = screen.getByTestId(TID.commandRow);
    expect(command).toHaveTextContent("/review");
    expect(command).toHaveTextContent("[files]");
    expect(command).toHaveTextContent("Review the changes");
    expect(command).toHaveTextContent("from Warden's config folder");
    expect(command).toHaveTextContent("/home/me/.config/warden/commands/review.md");

    const problems = screen.getByTestId(TID.conventionProblems);
    expect(problems).toHaveTextContent("/p/.agents/skills/broken");
    expect(problems).toHaveTextContent("SKILL.md has no description");
  });

  it("a switch saves what is pending first, calls skill_switch and shows the new state", async () => {
    const { beforeChange, onChanged } = renderSection();
    const user = userEvent.setup();
    await user.click(await waitFor(() => switchOf("pdf")));
    expect(switchOf("pdf")).not.toBeChecked();
    await waitFor(() => expect(switches()).toEqual([{ name: "pdf", on: false }]));
    expect(beforeChange).toHaveBeenCalled();
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
    expect(row("pdf")).toHaveAttribute("data-on", "false");
    expect(switchOf("pdf")).toBeEnabled();
    await user.click(switchOf("release"));
    await waitFor(() => expect(switches()).toEqual([{ name: "pdf", on: false }, { name: "release", on: true }]));
    expect(switchOf("release")).toBeChecked();
    expect(screen.queryByTestId(TID.skillError)).toBeNull();
  });

  it("a switch that fails is back as it was, with the reason", async () => {
    refuse = "the settings file could not be written";
    const { onChanged } = renderSection();
    const user = userEvent.setup();
    await user.click(await waitFor(() => switchOf("pdf")));
    const error = await within(row("pdf")).findByTestId(TID.skillError);
    expect(error).toHaveTextContent("the settings file could not be written");
    expect(switchOf("pdf")).toBeChecked();
    expect(row("pdf")).toHaveAttribute("data-on", "true");
    expect(onChanged).not.toHaveBeenCalled();
  });

  it("with none found, says where skills and commands go", async () => {
    found = { skills: [], commands: [], problems: [] };
    renderSection();
    const section = screen.getByTestId(TID.skillsSection);
    await waitFor(() => expect(section).toHaveTextContent("No skills found"));
    expect(section).toHaveTextContent("Warden's config folder (skills/)");
    expect(section).toHaveTextContent(".agents/skills/");
    expect(section).toHaveTextContent(".claude/skills/");
    expect(section).toHaveTextContent("No custom commands found");
    expect(section).toHaveTextContent("config folder (commands/)");
    expect(section).toHaveTextContent(".claude/commands/");
    expect(screen.queryByTestId(TID.conventionProblems)).toBeNull();
  });

  it("says when the list cannot be read", async () => {
    mockIPC(() => {
      throw { code: "INTERNAL", message: "the engine is not running" };
    });
    renderSection();
    expect(await screen.findByTestId(TID.conventionsError)).toHaveTextContent("the engine is not running");
  });
});
