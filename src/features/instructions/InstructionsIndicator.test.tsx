import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import type { InstructionsInUse } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { InstructionsIndicator, inUseLabel } from "./InstructionsIndicator";

function serve(inUse: InstructionsInUse | (() => InstructionsInUse), open: (path: string) => void = () => {}) {
  const calls: { cmd: string; args: Record<string, unknown> }[] = [];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    if (cmd === "instructions_in_use") return typeof inUse === "function" ? inUse() : inUse;
    if (cmd === "instructions_open") return open(a.path as string) ?? null;
    throw new Error(`unexpected command ${cmd}`);
  });
  return calls;
}

const ROOT = { path: "/home/me/app/AGENTS.md", relativePath: "AGENTS.md", bytes: 120, truncated: false };
const NESTED = { path: "/home/me/app/src/AGENTS.md", relativePath: "src/AGENTS.md", bytes: 16384, truncated: true };

describe("InstructionsIndicator", () => {
  it("names what is in use and opens a file through the engine, by the path the engine gave", async () => {
    const calls = serve({ files: [ROOT], global: false });
    render(<InstructionsIndicator refreshKey="a" />);
    const indicator = await screen.findByTestId(TID.instructionsIndicator);
    expect(indicator).toHaveTextContent("Using AGENTS.md");
    expect(indicator).toHaveAttribute("aria-expanded", "false");
    await userEvent.click(indicator);
    const list = screen.getByTestId(TID.instructionsInUse);
    await userEvent.click(within(list).getByRole("button", { name: "AGENTS.md" }));
    await waitFor(() =>
      expect(calls.filter((c) => c.cmd === "instructions_open").map((c) => c.args)).toEqual([{ path: ROOT.path }]),
    );
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByTestId(TID.instructionsInUse)).toBeNull();
  });

  it("says when a file was cut and that global instructions are in use, and why an open failed", async () => {
    serve({ files: [ROOT, NESTED], global: true }, () => {
      throw { code: "INVALID_INPUT", message: "Only an instruction file the project uses is opened this way." };
    });
    render(<InstructionsIndicator refreshKey="a" />);
    const indicator = await screen.findByTestId(TID.instructionsIndicator);
    expect(indicator).toHaveTextContent("Using AGENTS.md + 2 more");
    await userEvent.click(indicator);
    const list = screen.getByTestId(TID.instructionsInUse);
    expect(within(list).getAllByTestId(TID.instructionFileOpen).map((b) => b.textContent)).toEqual(["AGENTS.md", "src/AGENTS.md"]);
    expect(within(list).getByTestId(TID.instructionFileCut)).toHaveTextContent("only the first 16 KB reach the model");
    expect(list).toHaveTextContent("Your global instructions");
    await userEvent.click(within(list).getByRole("button", { name: "src/AGENTS.md" }));
    expect(await within(list).findByRole("alert")).toHaveTextContent("Only an instruction file the project uses");
  });

  it("shows nothing when there are no instructions, and asks again when told to", async () => {
    let inUse: InstructionsInUse = { files: [], global: false };
    const calls = serve(() => inUse);
    const { rerender } = render(<InstructionsIndicator refreshKey="a" />);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.queryByTestId(TID.instructionsIndicator)).toBeNull();
    inUse = { files: [], global: true };
    rerender(<InstructionsIndicator refreshKey="b" />);
    expect(await screen.findByTestId(TID.instructionsIndicator)).toHaveTextContent("Using global instructions");
  });

  it("labels one or two sources by name, more by count", () => {
    expect(inUseLabel(["AGENTS.md"], false)).toBe("AGENTS.md");
    expect(inUseLabel(["AGENTS.md"], true)).toBe("AGENTS.md + global instructions");
    expect(inUseLabel(["AGENTS.md", "a/AGENTS.md", "a/b/CLAUDE.md"], false)).toBe("AGENTS.md + 2 more");
  });
});
