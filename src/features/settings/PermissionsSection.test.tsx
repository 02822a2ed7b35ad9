import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { PermissionRule, RuleScope, ScopedRule } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { PermissionsSection } from "./PermissionsSection";

type Handler = (args: Record<string, unknown>) => unknown;
let calls: { cmd: string; args: Record<string, unknown> }[];
let rules: ScopedRule[];

const same = (a: PermissionRule, b: PermissionRule) => a.effect === b.effect && a.tool === b.tool && (a.pattern ?? null) === (b.pattern ?? null);

function mock(overrides: Record<string, Handler> = {}) {
  calls = [];
  const handlers: Record<string, Handler> = {
    rules_list: () => rules,
    rules_add: (a) => {
      rules = [...rules, { rule: a.rule as PermissionRule, scope: a.scope as RuleScope }];
      return null;
    },
    rules_remove: (a) => {
      const before = rules.length;
      rules = rules.filter((r) => !(r.scope === a.scope && same(r.rule, a.rule as PermissionRule)));
      return rules.length < before;
    },
    ...overrides,
  };
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    const h = handlers[cmd];
    if (!h) throw new Error(`unexpected command ${cmd}`);
    return h(a);
  });
}

const callsOf = (cmd: string) => calls.filter((c) => c.cmd === cmd).map((c) => c.args);
const rows = () => screen.getAllByTestId(TID.permissionRule);

beforeEach(() => {
  rules = [
    { rule: { effect: "allow", tool: "bash", pattern: "cargo test *", origin: { kind: "card" } }, scope: "project", lastUsed: "2025-03-01T10:00:00Z" },
    { rule: { effect: "ask", tool: "bash", pattern: "git push *", origin: { kind: "imported", from: "~/.claude/settings.json" } }, scope: "user" },
    { rule: { effect: "deny", tool: "network", pattern: "*.pastebin.com" }, scope: "managed" },
    { rule: { effect: "allow", tool: "write", pattern: "src/[", origin: { kind: "typed" } }, scope: "project", problem: "unclosed [ in the pattern" },
  ];
  mock();
});

describe("Settings → Permissions", () => {
  it("lists every rule with its effect, tool, pattern, scope, origin, last use and problem", async () => {
    render(<PermissionsSection />);
    await waitFor(() => expect(rows()).toHaveLength(4));
    const [card, imported, managed, broken] = rows();
    expect(card).toHaveTextContent("allow bash cargo test *");
    expect(card).toHaveTextContent("this project · saved from an approval · last decided a call");
    expect(imported).toHaveTextContent("ask bash git push *");
    expect(imported).toHaveTextContent("all projects · imported from ~/.claude/settings.json");
    expect(managed).toHaveTextContent("deny network *.pastebin.com");
    expect(managed).toHaveTextContent("organisation");
    // The organisation's rules are read-only.
    expect(within(managed!).queryByTestId(TID.permissionRuleDelete)).toBeNull();
    expect(within(managed!).queryByTestId(TID.permissionRuleEdit)).toBeNull();
    expect(broken).toHaveTextContent("typed");
    expect(broken).toHaveTextContent("Not applied: unclosed [ in the pattern");
  });

  it("deletes a rule from its own scope and lists the rules again", async () => {
    render(<PermissionsSection />);
    await waitFor(() => expect(rows()).toHaveLength(4));
    await userEvent.click(within(rows()[1]!).getByTestId(TID.permissionRuleDelete));
    expect(callsOf("rules_remove")).toEqual([{ scope: "user", rule: expect.objectContaining({ effect: "ask", tool: "bash", pattern: "git push *" }) }]);
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.queryByText(/git push/)).toBeNull();
  });

  it("adds a typed rule to the chosen scope", async () => {
    render(<PermissionsSection />);
    await waitFor(() => expect(rows()).toHaveLength(4));
    await userEvent.selectOptions(screen.getByTestId(TID.ruleEffect), "deny");
    await userEvent.type(screen.getByTestId(TID.ruleTool), "bash");
    await userEvent.type(screen.getByTestId(TID.rulePattern), "git push --force *");
    await userEvent.selectOptions(screen.getByTestId(TID.ruleScope), "user");
    await userEvent.click(screen.getByTestId(TID.ruleAdd));
    expect(callsOf("rules_add")).toEqual([
      { scope: "user", rule: { effect: "deny", tool: "bash", pattern: "git push --force *", origin: { kind: "typed" } } },
    ]);
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(rows()[4]).toHaveTextContent("deny bash git push --force *");
    expect(screen.getByTestId(TID.ruleTool)).toHaveValue("");
  });

  it("shows the engine's reason when it refuses a rule", async () => {
    mock({ rules_add: () => Promise.reject({ code: "INVALID_INPUT", message: "`bash` patterns are commands: `src/**` is a path" }) });
    render(<PermissionsSection />);
    await waitFor(() => expect(rows()).toHaveLength(4));
    await userEvent.selectOptions(screen.getByTestId(TID.ruleEffect), "ask");
    await userEvent.type(screen.getByTestId(TID.ruleTool), "bash");
    await userEvent.type(screen.getByTestId(TID.rulePattern), "src/**");
    await userEvent.click(screen.getByTestId(TID.ruleAdd));
    expect(await screen.findByTestId(TID.ruleAddError)).toHaveTextContent("`bash` patterns are commands: `src/**` is a path");
    expect(rows()).toHaveLength(4);
  });

  it("warns before adding an allow rule broader than one program", async () => {
    render(<PermissionsSection />);
    await waitFor(() => expect(rows()).toHaveLength(4));
    await userEvent.type(screen.getByTestId(TID.ruleTool), "bash");
    await userEvent.type(screen.getByTestId(TID.rulePattern), "rm *");
    await userEvent.click(screen.getByTestId(TID.ruleAdd));
    expect(screen.getByTestId(TID.ruleBroadWarning)).toHaveTextContent("rm with any arguments");
    expect(callsOf("rules_add")).toEqual([]);
    await userEvent.click(screen.getByTestId(TID.ruleBroadConfirm));
    expect(callsOf("rules_add")).toEqual([
      { scope: "project", rule: { effect: "allow", tool: "bash", pattern: "rm *", origin: { kind: "typed" } } },
    ]);
  });

  it("a narrow allow rule is added without a warning", async () => {
    render(<PermissionsSection />);
    await waitFor(() => expect(rows()).toHaveLength(4));
    await userEvent.type(screen.getByTestId(TID.ruleTool), "write");
    await userEvent.type(screen.getByTestId(TID.rulePattern), "docs/**");
    await userEvent.click(screen.getByTestId(TID.ruleAdd));
    expect(screen.queryByTestId(TID.ruleBroadWarning)).toBeNull();
    expect(callsOf("rules_add")).toHaveLength(1);
  });

  it("Edit fills the form; saving adds the new rule, then removes the old one", async () => {
    render(<PermissionsSection />);
    await waitFor(() => expect(rows()).toHaveLength(4));
    await userEvent.click(within(rows()[0]!).getByTestId(TID.permissionRuleEdit));
    expect(screen.getByTestId(TID.ruleTool)).toHaveValue("bash");
    const pattern = screen.getByTestId(TID.rulePattern);
    expect(pattern).toHaveValue("cargo test *");
    await userEvent.clear(pattern);
    await userEvent.type(pattern, "cargo test -p core *");
    await userEvent.click(screen.getByTestId(TID.ruleAdd));
    expect(calls.filter((c) => c.cmd === "rules_add" || c.cmd === "rules_remove").map((c) => c.cmd)).toEqual(["rules_add", "rules_remove"]);
    expect(callsOf("rules_remove")[0]).toMatchObject({ scope: "project", rule: { tool: "bash", pattern: "cargo test *" } });
    await waitFor(() => expect(screen.getByText("cargo test -p core *")).toBeInTheDocument());
    expect(screen.queryByText("cargo test *")).toBeNull();
  });

  it("tries a call: sends the input the tool takes and shows the decision, the reason and the rule", async () => {
    mock({
      rules_check: () => ({ decision: "ask", askedBecause: "ask_rule", rule: "ask bash: git push * (all projects)", reason: "A permission rule says to ask." }),
    });
    render(<PermissionsSection />);
    await userEvent.clear(screen.getByTestId(TID.ruleCheckTool));
    await userEvent.type(screen.getByTestId(TID.ruleCheckTool), "bash");
    await userEvent.type(screen.getByTestId(TID.ruleCheckInput), "git push origin main");
    await userEvent.click(screen.getByTestId(TID.ruleCheck));
    expect(callsOf("rules_check")).toEqual([{ tool: "bash", input: { command: "git push origin main" } }]);
    const result = await screen.findByTestId(TID.ruleCheckResult);
    expect(result).toHaveAttribute("data-decision", "ask");
    expect(result).toHaveTextContent("Asks first: A permission rule says to ask.");
    expect(result).toHaveTextContent("ask bash: git push * (all projects)");
  });

  it("tries a file write with a path, and says when JSON input does not parse", async () => {
    mock({ rules_check: () => ({ decision: "allow", rule: "allow write: src/** (project)", reason: "A rule allows it." }) });
    render(<PermissionsSection />);
    await userEvent.clear(screen.getByTestId(TID.ruleCheckTool));
    await userEvent.type(screen.getByTestId(TID.ruleCheckTool), "file_write");
    await userEvent.type(screen.getByTestId(TID.ruleCheckInput), "src/a.rs{Enter}");
    expect(callsOf("rules_check")).toEqual([{ tool: "file_write", input: { path: "src/a.rs", content: "" } }]);
    expect(await screen.findByTestId(TID.ruleCheckResult)).toHaveTextContent("Runs without asking");
    await userEvent.clear(screen.getByTestId(TID.ruleCheckTool));
    await userEvent.type(screen.getByTestId(TID.ruleCheckTool), "mcp__db__query");
    await userEvent.clear(screen.getByTestId(TID.ruleCheckInput));
    await userEvent.type(screen.getByTestId(TID.ruleCheckInput), "not json");
    await userEvent.click(screen.getByTestId(TID.ruleCheck));
    expect(screen.getByTestId(TID.ruleCheckError)).toHaveTextContent("not JSON");
    expect(callsOf("rules_check")).toHaveLength(1);
  });
});
