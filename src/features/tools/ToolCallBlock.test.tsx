import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import { makeConfirm, makeTool } from "../../test/builders";
import type { ToolReport } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { ToolCallBlock } from "./ToolCallBlock";

describe("ToolCallBlock", () => {
  it("shows icon, name, a one-line summary and the status; open while running", () => {
    render(<ToolCallBlock tool={makeTool({ input: { command: "cargo test\n--all" } })} />);
    const block = screen.getByTestId(TID.toolBlock);
    expect(block).toHaveAttribute("data-tool-id", "t1");
    expect(block).toHaveAttribute("data-status", "running");
    expect(block).toHaveTextContent("bash");
    expect(block).toHaveTextContent("cargo test …");
    expect(screen.getByRole("progressbar")).toBeInTheDocument();
    expect(screen.getByTestId(TID.toolToggle)).toHaveAttribute("aria-expanded", "true");
  });

  it("is collapsed when done and shows full input and output when expanded", async () => {
    render(<ToolCallBlock tool={makeTool({ status: "success", input: { path: "README.md" }, toolName: "file_read", category: "fileRead", result: "# Hello" })} />);
    expect(screen.queryByTestId(TID.toolOutput)).toBeNull();
    expect(screen.getByTestId(TID.toolStatus)).toHaveTextContent("✓");
    await userEvent.click(screen.getByTestId(TID.toolToggle));
    expect(screen.getByTestId(TID.toolInput)).toHaveTextContent('"path": "README.md"');
    expect(screen.getByTestId(TID.toolOutput)).toHaveTextContent("# Hello");
  });

  it("shows the shield and what the box allowed when a command ran contained", () => {
    const report = { command: { exitCode: 0 }, sandbox: { contained: true, summary: "no network · writes: project" } };
    render(<ToolCallBlock tool={makeTool({ status: "success", result: "ok", report })} />);
    const badge = screen.getByTestId(TID.toolSandbox);
    expect(badge).toHaveTextContent("🛡 no network · writes: project");
    expect(badge).not.toHaveClass("tool-sandbox-off");
  });

  it("names the session's servers forwarded to this machine, and the port in the box when it differs", () => {
    const report = { sandbox: { contained: true }, forwardedPorts: [{ port: 8000, hostPort: 8000 }, { port: 5173, hostPort: 40123 }] };
    render(<ToolCallBlock tool={makeTool({ status: "success", result: "ok", report })} />);
    const forwards = screen.getByTestId(TID.toolForwards);
    expect(forwards).toHaveTextContent("localhost:8000");
    expect(forwards).toHaveTextContent("localhost:40123 (port 5173 in the sandbox)");
    expect(forwards.querySelectorAll(".tool-forward")).toHaveLength(2);
  });

  it("offers to let the project's commands read a home path a failed command looked for, and says what the engine answered", async () => {
    const calls: { cmd: string; args: unknown }[] = [];
    mockIPC((cmd, args) => {
      calls.push({ cmd, args });
      if (cmd !== "sandbox_allow_read") throw new Error(`unexpected ${cmd}`);
      const path = (args as { path: string }).path;
      if (path.endsWith("other")) throw { code: "INVALID_INPUT", message: `Commands cannot be let read ${path}: it does not exist.` };
      return null;
    });
    const report = { command: { exitCode: 1 }, readableOffers: ["/home/me/Documents/notes.txt", "/home/me/other"] };
    render(<ToolCallBlock tool={makeTool({ status: "error", result: "x", report, conversationId: "c-1" })} />);
    const offers = screen.getByTestId(TID.toolReadableOffers);
    expect(offers.querySelectorAll("li")).toHaveLength(2);
    expect(offers).toHaveTextContent("/home/me/Documents/notes.txt is not in the sandbox");
    const [notes, other] = within(offers).getAllByTestId(TID.toolReadableOffer);
    await userEvent.click(notes!);
    expect(await screen.findByTestId(TID.toolReadableOfferDone)).toHaveTextContent("from your next message");
    expect(calls).toEqual([{ cmd: "sandbox_allow_read", args: { conversationId: "c-1", path: "/home/me/Documents/notes.txt" } }]);
    await userEvent.click(other!);
    await waitFor(() => expect(offers).toHaveTextContent("Commands cannot be let read /home/me/other: it does not exist."));
    expect(within(offers).getAllByTestId(TID.toolReadableOffer)).toHaveLength(1);
  });

  it("says what Warden moved out of the git metadata and puts it back only when asked twice", async () => {
    const calls: { cmd: string; args: unknown }[] = [];
    mockIPC((cmd, args) => {
      calls.push({ cmd, args });
      if (cmd !== "git_aside_restore") throw new Error(`unexpected ${cmd}`);
      if ((args as { aside: string }).aside === "2-config") throw { code: "INVALID_INPUT", message: "something is at /p/.git/config now" };
      return null;
    });
    const report = {
      gitAside: [
        { from: "/p/sub/.git/hooks/pre-commit", aside: "1-hooks-pre-commit", danger: "have run as a git hook" },
        { from: "/p/.git/config", aside: "2-config", danger: "have set git options that run programs" },
      ],
    };
    render(<ToolCallBlock tool={makeTool({ status: "success", result: "x", report, conversationId: "c-9" })} />);
    const list = screen.getByTestId(TID.toolGitAside);
    expect(list.querySelectorAll("li")).toHaveLength(2);
    expect(list).toHaveTextContent("Warden moved /p/sub/.git/hooks/pre-commit aside: it would have run as a git hook.");
    const [hook, config] = within(list).getAllByTestId(TID.toolGitAsideRestore);
    await userEvent.click(hook!);
    expect(calls).toEqual([]);
    expect(list).toHaveTextContent("It will run outside the sandbox the next time git runs here.");
    await userEvent.click(screen.getByText("Keep it aside"));
    expect(within(list).getAllByTestId(TID.toolGitAsideRestore)).toHaveLength(2);
    await userEvent.click(within(list).getAllByTestId(TID.toolGitAsideRestore)[0]!);
    await userEvent.click(screen.getByTestId(TID.toolGitAsideConfirm));
    expect(await screen.findByTestId(TID.toolGitAsideDone)).toHaveTextContent("Put back.");
    expect(calls).toEqual([{ cmd: "git_aside_restore", args: { conversationId: "c-9", from: "/p/sub/.git/hooks/pre-commit", aside: "1-hooks-pre-commit" } }]);
    await userEvent.click(config!);
    await userEvent.click(screen.getByTestId(TID.toolGitAsideConfirm));
    await waitFor(() => expect(list).toHaveTextContent("something is at /p/.git/config now"));
  });

  it("says in words what the sandbox refused a failed command, and the way to allow it", async () => {
    const opened: string[] = [];
    const listen = (e: Event) => opened.push(String((e as CustomEvent<string>).detail));
    window.addEventListener("warden:shortcut", listen);
    const report: ToolReport = { command: { exitCode: 1, signal: null }, boxRefused: ["writeOutside", "noNetwork"] };
    render(<ToolCallBlock tool={makeTool({ status: "error", result: "x", report })} />);
    const said = screen.getByTestId(TID.toolBoxRefused);
    const [write, network] = Array.from(said.querySelectorAll("li"));
    expect(write).toHaveTextContent("kept this command from writing outside the project");
    expect(write).toHaveTextContent("add it in Settings → Sandbox");
    expect(network).toHaveTextContent("ran without network");
    expect(network).toHaveTextContent("Warden will ask you about each new host");
    await userEvent.click(within(write!).getByRole("button", { name: "Open Settings" }));
    window.removeEventListener("warden:shortcut", listen);
    expect(opened).toEqual(["settings"]);
  });

  it("offers nothing when a command named no path the sandbox left out", () => {
    render(<ToolCallBlock tool={makeTool({ status: "error", result: "x", report: { command: { exitCode: 1 } } })} />);
    expect(screen.queryByTestId(TID.toolReadableOffers)).toBeNull();
    expect(screen.queryByTestId(TID.toolBoxRefused)).toBeNull();
  });

  it("lists the hosts a command's sandbox reached and each one refused with why", () => {
    const report = {
      command: { exitCode: 7 },
      network: [
        { host: "registry.test", port: 443, allowed: true },
        { host: "other.test", port: 80, allowed: false, why: "you denied other.test for this session" },
      ],
    };
    render(<ToolCallBlock tool={makeTool({ status: "error", result: "x", report })} />);
    const list = screen.getByTestId(TID.toolNetwork);
    expect(list.querySelectorAll("li")).toHaveLength(2);
    expect(list.querySelector('[data-allowed="false"]')).toHaveTextContent("other.test:80 — you denied other.test for this session");
    expect(list.querySelector('[data-allowed="true"]')).toHaveTextContent("registry.test:443");
  });

  it("says plainly when a command ran outside any sandbox, and says nothing for other tools", () => {
    const { rerender } = render(
      <ToolCallBlock tool={makeTool({ status: "success", result: "ok", report: { sandbox: { contained: false } } })} />,
    );
    expect(screen.getByTestId(TID.toolSandbox)).toHaveTextContent("not contained");
    expect(screen.getByTestId(TID.toolSandbox)).toHaveClass("tool-sandbox-off");
    rerender(<ToolCallBlock tool={makeTool({ toolName: "file_read", category: "fileRead", status: "success", result: "x", metadata: { sha256: "ab" } })} />);
    expect(screen.queryByTestId(TID.toolSandbox)).toBeNull();
  });

  it("collapses by itself when the tool finishes", () => {
    const { rerender } = render(<ToolCallBlock tool={makeTool()} />);
    expect(screen.getByTestId(TID.toolOutput)).toBeInTheDocument();
    rerender(<ToolCallBlock tool={makeTool({ status: "success", result: "ok" })} />);
    expect(screen.queryByTestId(TID.toolOutput)).toBeNull();
  });

  it.each([
    ["error", "✕"],
    ["denied", "⊘"],
    ["cancelled", "■"],
    ["awaiting_approval", "?"],
  ] as const)("shows status %s as %s", (status, glyph) => {
    render(<ToolCallBlock tool={makeTool({ status })} />);
    expect(screen.getByTestId(TID.toolStatus)).toHaveTextContent(glyph);
    expect(screen.getByTestId(TID.toolBlock)).toHaveAttribute("data-status", status);
  });

  it("renders bash output in a terminal with ANSI colours, never raw escapes", () => {
    render(<ToolCallBlock tool={makeTool({ output: "ok \x1b[31mFAILED\x1b[0m done" })} />);
    const term = screen.getByTestId(TID.bashOutput);
    expect(term.textContent).toBe("ok FAILED done");
    const red = within(term).getByText("FAILED");
    expect(red).toHaveClass("ansi-1-fg");
  });

  it("caps a huge bash output and says how much is hidden", () => {
    const big = "a".repeat(60_000) + "TAIL";
    render(<ToolCallBlock tool={makeTool({ output: big })} />);
    const term = screen.getByTestId(TID.bashOutput);
    expect(term).toHaveTextContent("earlier characters not shown");
    expect(term.textContent?.endsWith("TAIL")).toBe(true);
    expect(term.textContent!.length).toBeLessThan(51_000);
  });

  it("while a call waits for approval, the card shows its preview and the block only says it waits", () => {
    const confirm = makeConfirm({
      toolName: "file_edit",
      preview: { kind: "diff", path: "a.txt", diff: "@@ -1 +1 @@\n-old\n+new\n" },
    });
    render(<ToolCallBlock tool={makeTool({ toolName: "file_edit", category: "fileChange", input: { path: "a.txt" }, status: "awaiting_approval", confirm })} />);
    expect(screen.getByTestId(TID.toolAwaiting)).toBeInTheDocument();
    expect(screen.queryByTestId(TID.diffView)).toBeNull();
    expect(screen.queryByTestId(TID.toolInput)).toBeNull();
  });

  it("shows the diff of a file change from its approval preview once approved", () => {
    const confirm = makeConfirm({
      toolName: "file_edit",
      preview: { kind: "diff", path: "a.txt", diff: "@@ -1 +1 @@\n-old\n+new\n" },
    });
    render(<ToolCallBlock tool={makeTool({ toolName: "file_edit", category: "fileChange", input: { path: "a.txt" }, status: "running", confirm })} />);
    const diff = screen.getByTestId(TID.diffView);
    expect(diff).toHaveTextContent("a.txt");
    expect(diff.querySelector('[data-kind="del"]')).toHaveTextContent("old");
    expect(diff.querySelector('[data-kind="add"]')).toHaveTextContent("new");
  });

  it("an auto-approved file change shows its diff from the result, not its JSON input; the same content says no changes", async () => {
    // A write that ran unasked: its result carries the diff.
    const written = (diff: string) =>
      makeTool({
        toolName: "file_write",
        category: "fileChange",
        input: { path: "a.txt", content: "new\n" },
        status: "success",
        result: "overwrote a.txt (4 bytes)",
        report: { diff: { path: "a.txt", diff } },
      });
    const { unmount } = render(<ToolCallBlock tool={written("--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n")} />);
    await userEvent.click(screen.getByTestId(TID.toolToggle));
    expect(screen.getByTestId(TID.diffView).querySelector('[data-kind="add"]')).toHaveTextContent("new");
    expect(screen.queryByTestId(TID.toolInput)).toBeNull();
    unmount();
    render(<ToolCallBlock tool={written("")} />);
    await userEvent.click(screen.getByTestId(TID.toolToggle));
    expect(screen.getByTestId(TID.diffView)).toHaveTextContent("no changes");
    expect(screen.getByTestId(TID.diffView)).not.toHaveTextContent("+0");
  });

  it("a finished command, folded, keeps its last lines in view with its exit code and duration", () => {
    render(
      <ToolCallBlock
        tool={makeTool({
          status: "error",
          output: "one\ntwo\n\u001b[31mthree\u001b[0m\nfour\n",
          result: "exit code 2",
          report: { command: { exitCode: 2 }, durationMs: 1234 },
        })}
      />,
    );
    expect(screen.queryByTestId(TID.toolOutput)).toBeNull();
    const tail = screen.getByTestId(TID.commandTail);
    expect(tail).toHaveAttribute("data-exit-code", "2");
    expect(tail).toHaveTextContent("two three four");
    expect(tail).not.toHaveTextContent("one");
    expect(tail).toHaveTextContent("exit 2 · 1.2 s");
    expect(tail.textContent).not.toContain("\u001b");
  });

  it("lists search hits as the engine listed them, and says when more matched", async () => {
    const hits = {
      items: [
        { location: "a.rs", line: 1, text: "// TODO" },
        { location: "b.rs", line: 9, text: "// TODO later" },
      ],
      capped: true,
    };
    const result = "a.rs:1:// TODO\nb.rs:9:// TODO later";
    render(<ToolCallBlock tool={makeTool({ toolName: "search_in_files", category: "search", input: { query: "TODO" }, status: "success", result, report: { hits } })} />);
    expect(screen.getByTestId(TID.toolBlock)).toHaveTextContent("TODO");
    await userEvent.click(screen.getByTestId(TID.toolToggle));
    expect(screen.getAllByTestId(TID.searchHit)).toHaveLength(2);
    expect(screen.getAllByTestId(TID.searchHit)[1]).toHaveTextContent("b.rs:9");
    expect(screen.getByTestId(TID.searchHits)).toHaveTextContent("More matched than the search listed");
  });

  it("shows a search saved without a report as its text, parsing nothing", async () => {
    const result = "a.rs:1:// TODO\nb.rs:9:// TODO later";
    render(<ToolCallBlock tool={makeTool({ toolName: "search_in_files", category: "search", input: { query: "TODO" }, status: "success", result })} />);
    await userEvent.click(screen.getByTestId(TID.toolToggle));
    expect(screen.queryByTestId(TID.searchHits)).toBeNull();
    expect(screen.getByTestId(TID.plainOutput)).toHaveTextContent("b.rs:9:// TODO later");
  });

  it("says under an “Always allow…” answer which rule was kept, or why none was", () => {
    const kept = { kept: true, words: "allow bash: cargo test *" };
    const { rerender } = render(<ToolCallBlock tool={makeTool({ status: "success", result: "ok", report: { rule: kept } })} />);
    expect(screen.getByTestId(TID.toolRule)).toHaveTextContent("Kept the rule allow bash: cargo test *; Settings → Permissions lists it.");
    const notKept = { kept: false, words: "the managed policy forbids “always”" };
    rerender(<ToolCallBlock tool={makeTool({ status: "success", result: "ok", report: { rule: notKept } })} />);
    expect(screen.getByTestId(TID.toolRule)).toHaveTextContent("No rule was kept: the managed policy forbids “always”");
    expect(screen.getByTestId(TID.toolRule)).toHaveAttribute("data-kept", "false");
  });

  it("shows a bidi-spoofed command as it runs, in its header and its input: the override is a badge, never applied", async () => {
    const command = "echo 'safe listing' # \u202e; rm -rf ~ \u202c&& ls";
    render(<ToolCallBlock tool={makeTool({ input: { command }, status: "success", result: "ok" })} />);
    const header = screen.getByTestId(TID.toolToggle);
    expect(header).toHaveTextContent("# ⟨U+202E⟩; rm -rf ~ ⟨U+202C⟩&& ls");
    expect(header.textContent).not.toContain("\u202e");
    expect(header.querySelectorAll(".hidden-char")).toHaveLength(2);
    await userEvent.click(header);
    const input = screen.getByTestId(TID.toolInput);
    expect(input).toHaveTextContent("⟨U+202E⟩; rm -rf ~ ⟨U+202C⟩");
    expect(input.textContent).not.toContain("\u202e");
  });

  it("falls back to JSON for an unknown tool", async () => {
    render(<ToolCallBlock tool={makeTool({ toolName: "mcp_thing", category: "mcp", input: { a: 1 }, status: "success", metadata: { x: [1, 2] } })} />);
    await userEvent.click(screen.getByTestId(TID.toolToggle));
    expect(screen.getAllByTestId(TID.jsonView)[1]).toHaveTextContent('"x"');
  });

  it("names an MCP tool by its own name and its server, as the engine says them", () => {
    const mcp = { server: "everything", tool: "get-sum" };
    const { rerender } = render(
      <ToolCallBlock tool={makeTool({ toolName: "mcp__everything__get-sum", category: "mcp", mcp, input: { a: 1, b: 2 }, status: "success", result: "3" })} />,
    );
    expect(screen.getByTestId(TID.toolServer)).toHaveTextContent("everything");
    expect(screen.getByTestId(TID.toolBlock)).toHaveAttribute("aria-label", expect.stringContaining("get-sum (MCP server everything)"));
    // A server whose name holds `__`: its tool is not split where the name looks like it.
    const odd = { server: "team__notes", tool: "find" };
    rerender(<ToolCallBlock tool={makeTool({ toolName: "mcp__team__notes__find", category: "mcp", mcp: odd, status: "success", result: "x" })} />);
    expect(screen.getByTestId(TID.toolServer)).toHaveTextContent("team__notes");
    expect(screen.getByTestId(TID.toolBlock)).toHaveAttribute("aria-label", expect.stringContaining("find (MCP server team__notes)"));
  });

  it("shows stderr apart from stdout", () => {
    render(<ToolCallBlock tool={makeTool({ output: "fine\nboom\n", stderr: [[5, 10]] })} />);
    expect(within(screen.getByTestId(TID.bashOutput)).getByText("boom", { exact: false })).toHaveClass("stderr");
    expect(within(screen.getByTestId(TID.bashOutput)).getByText("fine", { exact: false })).not.toHaveClass("stderr");
  });

  it("past the live cap, a finished command shows the engine's head-and-tail result", async () => {
    const tool = makeTool({ output: "head...", outputDropped: 900_000, status: "success", result: "head...\n[cut 900000 chars]\n...tail" });
    render(<ToolCallBlock tool={tool} />);
    await userEvent.click(screen.getByTestId(TID.toolToggle));
    expect(screen.getByTestId(TID.bashOutput)).toHaveTextContent("...tail");
  });

  it("while running past the cap, says that more output is not shown live", () => {
    render(<ToolCallBlock tool={makeTool({ output: "head", outputDropped: 1234 })} />);
    expect(screen.getByTestId(TID.bashOutput)).toHaveTextContent("1,234 more characters not shown live");
  });
});
