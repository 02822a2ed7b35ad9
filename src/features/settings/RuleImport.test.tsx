import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { PermissionRule, RuleImport, RuleScope, ScopedRule } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { PermissionsSection } from "./PermissionsSection";

type Handler = (args: Record<string, unknown>) => unknown;
let calls: { cmd: string; args: Record<string, unknown> }[];
let rules: ScopedRule[];
let preview: RuleImport;

const HOME = "/home/ada/.claude/settings.json";
const PROJECT = "/home/ada/app/.claude/settings.json";
const CODEX = "/home/ada/.codex/rules/default.rules";

function mock(overrides: Record<string, Handler> = {}) {
  calls = [];
  const handlers: Record<string, Handler> = {
    rules_list: () => rules,
    rules_add: (a) => {
      rules = [...rules, { rule: a.rule as PermissionRule, scope: a.scope as RuleScope }];
      return null;
    },
    rules_import_preview: () => preview,
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
const candidates = () => screen.getAllByTestId(TID.ruleImportCandidate);
const candidate = (entry: string) => candidates().find((c) => c.getAttribute("data-entry") === entry)!;
const tick = (entry: string) => within(candidate(entry)).getByTestId(TID.ruleImportTick);

const testRule: PermissionRule = { effect: "allow", tool: "bash", pattern: "npm run test *", origin: { kind: "imported", from: PROJECT } };
const wideRule: PermissionRule = { effect: "allow", tool: "bash", pattern: null, origin: { kind: "imported", from: HOME } };
const denyRule: PermissionRule = { effect: "deny", tool: "read", pattern: ".env", origin: { kind: "imported", from: HOME } };
const codexRule: PermissionRule = { effect: "ask", tool: "bash", pattern: "git push *", origin: { kind: "imported", from: CODEX } };

beforeEach(() => {
  rules = [{ rule: { effect: "allow", tool: "bash", pattern: "cargo test *", origin: { kind: "card" } }, scope: "project" }];
  preview = {
    files: [HOME, PROJECT, CODEX],
    candidates: [
      { rule: testRule, scope: "project", entry: "Bash(npm run test:*)", ticked: true },
      { rule: wideRule, scope: "user", entry: "Bash", warning: "This allows every command, whatever it does, without asking.", ticked: false },
      { rule: denyRule, scope: "user", entry: "Read(.env)", ticked: true },
      { rule: codexRule, scope: "user", entry: 'prefix_rule(pattern=["git", "push"], decision="prompt")', ticked: true },
    ],
    skipped: [
      { from: HOME, entry: "WebFetch(domain:example.com)", why: "Warden has no web-fetch tool to give a rule to." },
      { from: PROJECT, entry: "mcp__github", why: "no MCP server named github is configured" },
    ],
  };
  mock();
});

async function openImport() {
  render(<PermissionsSection />);
  await waitFor(() => expect(screen.getAllByTestId(TID.permissionRule)).toHaveLength(1));
  await userEvent.click(screen.getByTestId(TID.ruleImportOpen));
  await waitFor(() => expect(candidates()).toHaveLength(4));
}

describe("Settings → Permissions → Import from Claude Code / codex", () => {
  it("shows the files read and each candidate with its rule, entry, file, scope and tick", async () => {
    await openImport();
    expect(callsOf("rules_import_preview")).toHaveLength(1);
    const files = screen.getByTestId(TID.ruleImportFiles);
    for (const f of [HOME, PROJECT, CODEX]) expect(files).toHaveTextContent(f);

    const test = candidate("Bash(npm run test:*)");
    expect(test).toHaveTextContent("allow bash npm run test *");
    expect(test).toHaveTextContent(`written Bash(npm run test:*) in ${PROJECT} · this project`);
    expect(tick("Bash(npm run test:*)")).toBeChecked();

    expect(candidate("Read(.env)")).toHaveTextContent(`deny read .env`);
    expect(candidate("Read(.env)")).toHaveTextContent(`in ${HOME} · all projects`);
    expect(candidate('prefix_rule(pattern=["git", "push"], decision="prompt")')).toHaveTextContent(`ask bash git push *`);
    expect(candidate('prefix_rule(pattern=["git", "push"], decision="prompt")')).toHaveTextContent(CODEX);
    // Nothing is added by looking.
    expect(callsOf("rules_add")).toEqual([]);
  });

  it("a wide allow comes unticked, with its warning; the others have none", async () => {
    await openImport();
    const wide = candidate("Bash");
    expect(tick("Bash")).not.toBeChecked();
    expect(wide).toHaveTextContent("allow bash (every call)");
    expect(within(wide).getByTestId(TID.ruleImportWarning)).toHaveTextContent("This allows every command, whatever it does, without asking.");
    expect(screen.getAllByTestId(TID.ruleImportWarning)).toHaveLength(1);
  });

  it("lists what could not be converted, with why", async () => {
    await openImport();
    const skipped = screen.getAllByTestId(TID.ruleImportSkipped);
    expect(skipped).toHaveLength(2);
    expect(skipped[0]).toHaveTextContent(`WebFetch(domain:example.com) from ${HOME}: Warden has no web-fetch tool to give a rule to.`);
    expect(skipped[1]).toHaveTextContent(`mcp__github from ${PROJECT}: no MCP server named github is configured`);
  });

  it("Add selected sends only the ticked ones, each to its scope with its origin, then lists the rules again", async () => {
    await openImport();
    // The user unticks one of the pre-ticked ones.
    await userEvent.click(tick('prefix_rule(pattern=["git", "push"], decision="prompt")'));
    const listsBefore = callsOf("rules_list").length;
    await userEvent.click(screen.getByTestId(TID.ruleImportAdd));
    await waitFor(() => expect(screen.getByTestId(TID.ruleImportDone)).toHaveTextContent("Added 2 rules."));
    expect(callsOf("rules_add")).toEqual([
      { scope: "project", rule: testRule },
      { scope: "user", rule: denyRule },
    ]);
    expect(callsOf("rules_add")[0]!.rule).toEqual({ effect: "allow", tool: "bash", pattern: "npm run test *", origin: { kind: "imported", from: PROJECT } });
    expect(callsOf("rules_list").length).toBeGreaterThan(listsBefore);
    await waitFor(() => expect(screen.getAllByTestId(TID.permissionRule)).toHaveLength(3));
    expect(screen.getAllByTestId(TID.permissionRule)[1]).toHaveTextContent(`imported from ${PROJECT}`);
    expect(screen.queryByTestId(TID.ruleImport)).toBeNull();
  });

  it("a ticked wide allow is added too, once the user ticks it", async () => {
    await openImport();
    await userEvent.click(tick("Bash"));
    await userEvent.click(screen.getByTestId(TID.ruleImportAdd));
    await waitFor(() => expect(callsOf("rules_add")).toHaveLength(4));
    expect(callsOf("rules_add")[1]).toEqual({ scope: "user", rule: wideRule });
  });

  it("says in words which entries the engine refused, and keeps them offered", async () => {
    mock({
      rules_add: (a) => {
        if ((a.rule as PermissionRule).tool === "read") return Promise.reject({ code: "INVALID_INPUT", message: "`.env` is outside the project" });
        rules = [...rules, { rule: a.rule as PermissionRule, scope: a.scope as RuleScope }];
        return null;
      },
    });
    await openImport();
    await userEvent.click(screen.getByTestId(TID.ruleImportAdd));
    const failure = await screen.findByTestId(TID.ruleImportFailure);
    expect(failure).toHaveAttribute("data-entry", "Read(.env)");
    expect(failure).toHaveTextContent(`Read(.env) (from ${HOME}) was not added: \`.env\` is outside the project`);
    expect(screen.getByTestId(TID.ruleImportDone)).toHaveTextContent("Added 2 rules.");
    // The added ones leave the list; the refused one (ticked) and the unticked wide one stay.
    expect(candidates().map((c) => c.getAttribute("data-entry"))).toEqual(["Bash", "Read(.env)"]);
    expect(tick("Read(.env)")).toBeChecked();
    expect(tick("Bash")).not.toBeChecked();
    await waitFor(() => expect(screen.getAllByTestId(TID.permissionRule)).toHaveLength(3));
  });

  it("Cancel closes without adding anything", async () => {
    await openImport();
    await userEvent.click(screen.getByTestId(TID.ruleImportCancel));
    expect(screen.queryByTestId(TID.ruleImport)).toBeNull();
    expect(callsOf("rules_add")).toEqual([]);
    expect(screen.getAllByTestId(TID.permissionRule)).toHaveLength(1);
    expect(screen.getByTestId(TID.ruleImportOpen)).toBeInTheDocument();
  });

  it("nothing found: a plain message and no Add button", async () => {
    preview = { files: [], candidates: [], skipped: [] };
    render(<PermissionsSection />);
    await userEvent.click(screen.getByTestId(TID.ruleImportOpen));
    expect(await screen.findByTestId(TID.ruleImportEmpty)).toHaveTextContent("nothing to import");
    expect(screen.getByTestId(TID.ruleImportFiles)).toHaveTextContent("No Claude Code or codex rule files were found.");
    expect(screen.queryByTestId(TID.ruleImportAdd)).toBeNull();
    await userEvent.click(screen.getByTestId(TID.ruleImportCancel));
    expect(callsOf("rules_add")).toEqual([]);
  });

  it("says why when the files could not be read", async () => {
    mock({ rules_import_preview: () => Promise.reject({ code: "IO", message: "settings.json is not JSON (line 3)" }) });
    render(<PermissionsSection />);
    await userEvent.click(screen.getByTestId(TID.ruleImportOpen));
    expect(await screen.findByTestId(TID.ruleImportError)).toHaveTextContent("settings.json is not JSON (line 3)");
    expect(screen.queryByTestId(TID.ruleImportAdd)).toBeNull();
  });
});
