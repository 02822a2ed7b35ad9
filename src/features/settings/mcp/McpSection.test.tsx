import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { useState } from "react";
import { beforeEach, describe, expect, it } from "vitest";
import type { McpServerStatus, ProjectMcpOffer, Settings } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { McpSection } from "./McpSection";
import { splitCommandLine } from "./mcpModel";

let statusCalls: number;
let statuses: McpServerStatus[];
let signIns: string[];
let offer: ProjectMcpOffer | null;
let kept: { name: string; value: string }[];

beforeEach(() => {
  statusCalls = 0;
  statuses = [];
  signIns = [];
  offer = null;
  kept = [];
  mockIPC((cmd, args) => {
    if (cmd === "mcp_sign_in") {
      signIns.push((args as { name: string }).name);
      statuses = statuses.map((s) => ({ ...s, state: "connected" as const, tools: [], resources: [], prompts: [] }));
      return null;
    }
    if (cmd === "mcp_project_offer") return offer;
    if (cmd === "mcp_secret_set") {
      kept.push(args as { name: string; value: string });
      return null;
    }
    if (cmd === "mcp_project_choose") {
      const { digest, approved } = args as { digest: string; approved: boolean };
      if (offer && offer.digest === digest) offer = { ...offer, approved };
      return null;
    }
    if (cmd === "mcp_status") {
      statusCalls += 1;
      return statuses;
    }
    if (cmd === "mcp_parse") {
      const json = (args as { json: string }).json;
      const parsed = JSON.parse(json) as { mcpServers?: unknown };
      if (!parsed.mcpServers) throw { code: "INVALID_INPUT", message: "the MCP configuration has no `mcpServers` object" };
      return parsed.mcpServers;
    }
    throw new Error(`unexpected command ${cmd}`);
  });
});

/** The section as Settings holds it: every change lands in the settings; `saves` counts as a save would. */
function Harness({ initial, onSettings }: { initial: Settings; onSettings: (s: Settings) => void }) {
  const [settings, setSettings] = useState(initial);
  const [saves, setSaves] = useState(0);
  return (
    <McpSection
      settings={settings}
      savedCount={saves}
      onChange={(s) => {
        setSettings(s);
        onSettings(s);
        setSaves((n) => n + 1);
      }}
    />
  );
}

function renderSection(initial: Settings = {}) {
  let latest: Settings = initial;
  render(<Harness initial={initial} onSettings={(s) => (latest = s)} />);
  return () => latest;
}

describe("Settings → MCP servers", () => {
  it("adds a program and a URL server from one field each", async () => {
    const user = userEvent.setup();
    const settings = renderSection();
    expect(screen.getByTestId(TID.mcpEmpty)).toBeInTheDocument();
    await user.type(screen.getByTestId(TID.mcpAddName), "files");
    await user.type(screen.getByTestId(TID.mcpAddTarget), 'npx -y @modelcontextprotocol/server-filesystem "/home/me/My Notes"');
    await user.click(screen.getByTestId(TID.mcpAdd));
    expect(settings().mcpServers?.files).toEqual({
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/My Notes"],
    });
    await user.type(screen.getByTestId(TID.mcpAddName), "remote");
    await user.type(screen.getByTestId(TID.mcpAddTarget), "https://mcp.example.com/mcp{Enter}");
    expect(settings().mcpServers?.remote).toEqual({ url: "https://mcp.example.com/mcp" });
    // A taken or unusable name is refused with the reason.
    await user.type(screen.getByTestId(TID.mcpAddName), "files");
    await user.type(screen.getByTestId(TID.mcpAddTarget), "x");
    await user.click(screen.getByTestId(TID.mcpAdd));
    expect(screen.getByText("There is already a server named files.")).toBeInTheDocument();
    await user.clear(screen.getByTestId(TID.mcpAddName));
    await user.type(screen.getByTestId(TID.mcpAddName), "my server");
    await user.click(screen.getByTestId(TID.mcpAdd));
    expect(screen.getByText("Name: 1–32 letters, digits, _ or -.")).toBeInTheDocument();
  });

  it("shows each server's state, what a failed one printed, and its tools' choices", async () => {
    const user = userEvent.setup();
    statuses = [
      {
        name: "everything",
        transport: "stdio",
        state: "connected",
        stderrTail: [],
        resources: ["Resource 1 <test://static/resource/1>"],
        prompts: ["simple-prompt"],
        tools: [
          { name: "echo", qualifiedName: "mcp__everything__echo", description: "Echoes", choice: null },
          { name: "get-env", qualifiedName: "mcp__everything__get-env", description: "Env", choice: null },
        ],
      },
      {
        name: "broken",
        transport: "stdio",
        state: "failed",
        error: "could not start `nope`",
        stderrTail: ["nope: not found"],
        tools: [],
        resources: [],
        prompts: [],
      },
    ];
    const settings = renderSection({
      mcpServers: { everything: { command: "mcp-server-everything", args: ["stdio"] }, broken: { command: "nope" } },
    });
    const row = (name: string) => screen.getAllByTestId(TID.mcpServer).find((r) => r.dataset.server === name)!;
    await waitFor(() => expect(within(row("everything")).getByTestId(TID.mcpStatus)).toHaveTextContent("Connected · 2 tools"));
    expect(within(row("broken")).getByTestId(TID.mcpStatus)).toHaveTextContent("Failed: could not start `nope`");
    expect(within(row("broken")).getByText("nope: not found")).toBeInTheDocument();
    expect(within(row("everything")).getByTestId(TID.mcpResources)).toHaveTextContent("test://static/resource/1");
    expect(within(row("everything")).getByTestId(TID.mcpPrompts)).toHaveTextContent("simple-prompt");

    const before = statusCalls;
    await user.selectOptions(within(row("everything")).getAllByTestId(TID.mcpToolChoice)[1]!, "deny");
    expect(settings().mcpServers?.everything?.tools).toEqual({ "get-env": "deny" });
    // Asked again once the change is saved.
    await waitFor(() => expect(statusCalls).toBeGreaterThan(before));
    await user.selectOptions(within(row("everything")).getAllByTestId(TID.mcpToolChoice)[1]!, "");
    expect(settings().mcpServers?.everything?.tools).toEqual({});

    await user.click(within(row("broken")).getByTestId(TID.mcpEnabled));
    expect(settings().mcpServers?.broken?.disabled).toBe(true);
    expect(within(row("broken")).getByTestId(TID.mcpStatus)).toHaveTextContent("Off");
    await user.click(within(row("broken")).getByTestId(TID.mcpRemove));
    expect(Object.keys(settings().mcpServers ?? {})).toEqual(["everything"]);
  });

  it("adds the servers of a pasted configuration, and says what is wrong with a bad one", async () => {
    const user = userEvent.setup();
    const settings = renderSection();
    await user.click(screen.getByText("Paste a configuration from another app"));
    await user.click(screen.getByTestId(TID.mcpPaste));
    await user.paste('{"other": {}}');
    await user.click(screen.getByTestId(TID.mcpImport));
    expect(await screen.findByText("the MCP configuration has no `mcpServers` object")).toBeInTheDocument();
    await user.clear(screen.getByTestId(TID.mcpPaste));
    await user.click(screen.getByTestId(TID.mcpPaste));
    await user.paste('{"mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}}}');
    await user.click(screen.getByTestId(TID.mcpImport));
    await waitFor(() => expect(settings().mcpServers?.memory?.command).toBe("npx"));
    expect(screen.getByTestId(TID.mcpPaste)).toHaveValue("");
  });

  it("signs in to a server that asks for it, and shows it connected after", async () => {
    const user = userEvent.setup();
    statuses = [{ name: "remote", transport: "http", state: "needsSignIn", stderrTail: [], tools: [], resources: [], prompts: [] }];
    renderSection({ mcpServers: { remote: { url: "https://mcp.example.com/mcp" } } });
    const status = await screen.findByText("Needs you to sign in");
    expect(status).toHaveAttribute("data-testid", TID.mcpStatus);
    await user.click(screen.getByTestId(TID.mcpSignIn));
    expect(signIns).toEqual(["remote"]);
    await waitFor(() => expect(screen.getByTestId(TID.mcpStatus)).toHaveTextContent("Connected · 0 tools"));
    expect(screen.getByTestId(TID.mcpSignOut)).toBeInTheDocument();
  });

  it("offers the project's own .mcp.json with every program it would start, and uses it only when told", async () => {
    const user = userEvent.setup();
    offer = {
      path: "/p/.mcp.json",
      servers: { db: { command: "npx", args: ["-y", "some-db-server", "--rw"] } },
      ignored: {},
      network: false,
      digest: "abc",
      approved: null,
      error: null,
    };
    renderSection({ projectDir: "/p" });
    const card = await screen.findByTestId(TID.mcpProject);
    expect(card).toHaveTextContent('args["-y","some-db-server","--rw"]');
    expect(card).toHaveTextContent("only use it if you trust it");
    await user.click(screen.getByTestId(TID.mcpProjectUse));
    await waitFor(() => expect(screen.getByTestId(TID.mcpProject)).toHaveAttribute("data-approved", "true"));
    expect(screen.getByTestId(TID.mcpProject)).toHaveTextContent("in use");
    await user.click(screen.getByTestId(TID.mcpProjectDecline));
    await waitFor(() => expect(screen.getByTestId(TID.mcpProject)).toHaveAttribute("data-approved", "false"));
  });

  it("shows every field a project's server would use and every field it ignores, with why, before it is approved", async () => {
    const user = userEvent.setup();
    const chosen: { digest: string; approved: boolean }[] = [];
    offer = {
      path: "/p/.mcp.json",
      servers: {
        local: {
          command: "node",
          args: ["tools/server.js", "two words"],
          env: { PLAIN: "value", SHOWN: "a\u202eb" },
          tools: { look: "ask" },
        },
        remote: {
          url: "https://mcp.example/mcp",
          headers: { "X-Team": "blue" },
          oauth: { clientId: "project-client", grant: "authorization_code" },
        },
      },
      ignored: {
        local: [
          { field: "tools.run", value: "allow", reason: "only you can let a tool run without asking" },
          { field: "sampling", value: "true", reason: "only your own settings let a server ask your model" },
          { field: "network", value: "true", reason: "a project's server gets the network as the project's commands" },
          { field: "env.TOKEN", value: "keychain:OTHER", reason: "names a secret from your keychain" },
        ],
        remote: [
          { field: "headers.Authorization", value: "keychain:OTHER", reason: "names a secret from your keychain" },
          { field: "oauth.clientSecret", value: "keychain:CI", reason: "an OAuth client's secret comes only from your own settings" },
        ],
      },
      network: false,
      digest: "d1g35t",
      approved: null,
      error: null,
    };
    mockIPC((cmd, args) => {
      if (cmd === "mcp_project_offer") return offer;
      if (cmd === "mcp_status") return [];
      if (cmd === "mcp_project_choose") {
        chosen.push(args as { digest: string; approved: boolean });
        return null;
      }
      throw new Error(`unexpected command ${cmd}`);
    });
    renderSection({ projectDir: "/p" });
    const card = await screen.findByTestId(TID.mcpProject);
    const servers = within(card).getAllByTestId(TID.mcpProjectServer);
    expect(servers.map((s) => s.dataset.server)).toEqual(["local", "remote"]);
    const fields = (server: HTMLElement) =>
      within(server)
        .getAllByTestId(TID.mcpProjectField)
        .map((row) => [row.dataset.field, row.querySelector("dd")?.textContent]);
    expect(fields(servers[0]!)).toEqual([
      ["command", "node"],
      ["args", '["tools/server.js","two words"]'],
      ["env.PLAIN", "value"],
      ["env.SHOWN", "a⟨U+202E⟩b"],
      ["tools.look", "ask"],
    ]);
    expect(fields(servers[1]!)).toEqual([
      ["url", "https://mcp.example/mcp"],
      ["headers.X-Team", "blue"],
      ["oauth.clientId", "project-client"],
      ["oauth.grant", "authorization_code"],
    ]);
    const ignoredLocal = within(servers[0]!).getByTestId(TID.mcpProjectIgnored);
    for (const [field, reason] of [
      ["tools.run", "only you can let a tool run without asking"],
      ["sampling", "ask your model"],
      ["network", "as the project's commands"],
      ["env.TOKEN", "names a secret from your keychain"],
    ] as const) {
      const item = ignoredLocal.querySelector(`li[data-field="${field}"]`);
      expect(item, field).not.toBeNull();
      expect(item).toHaveTextContent(reason);
    }
    const ignoredRemote = within(servers[1]!).getByTestId(TID.mcpProjectIgnored);
    expect(ignoredRemote).toHaveTextContent("headers.Authorization = keychain:OTHER");
    expect(ignoredRemote).toHaveTextContent("oauth.clientSecret = keychain:CI");
    expect(card).toHaveTextContent("without the network");
    expect(card).toHaveTextContent("SHA-256 of this content: d1g35t");
    // None of what is ignored is among the fields used.
    const used = within(card).getAllByTestId(TID.mcpProjectField).map((row) => row.dataset.field);
    for (const field of ["tools.run", "sampling", "network", "env.TOKEN", "headers.Authorization", "oauth.clientSecret"]) {
      expect(used).not.toContain(field);
    }
    await user.click(screen.getByTestId(TID.mcpProjectUse));
    expect(chosen).toEqual([{ digest: "d1g35t", approved: true }]);
  });

  it("keeps a token in the keychain, never in the settings, and takes a server's network away", async () => {
    const user = userEvent.setup();
    const settings = renderSection({ mcpServers: { files: { command: "mcp-files" } } });
    await user.click(screen.getByText("Keep a token for a server in the keychain"));
    await user.type(screen.getByTestId(TID.mcpSecretName), "github-token");
    await user.type(screen.getByTestId(TID.mcpSecretValue), "ghp_abc");
    await user.click(screen.getByTestId(TID.mcpSecretSave));
    expect(kept).toEqual([{ name: "github-token", value: "ghp_abc" }]);
    expect(await screen.findByTestId(TID.mcpSecretSaved)).toHaveTextContent('"keychain:github-token"');
    expect(screen.getByTestId(TID.mcpSecretValue)).toHaveValue("");
    expect(JSON.stringify(settings())).not.toContain("ghp_abc");
    await user.click(screen.getByTestId(TID.mcpNetwork));
    expect(settings().mcpServers?.files?.network).toBe("off");
  });

  it("lets a local server's sandbox read more, or run it outside the sandbox with a warning", async () => {
    const user = userEvent.setup();
    const settings = renderSection({ mcpServers: { files: { command: "mcp-files" }, remote: { url: "https://mcp.example/mcp" } } });
    const files = screen.getAllByTestId(TID.mcpServer).find((row) => row.dataset.server === "files")!;
    const remote = screen.getAllByTestId(TID.mcpServer).find((row) => row.dataset.server === "remote")!;
    expect(within(remote).queryByTestId(TID.mcpReadable)).toBeNull();
    expect(within(remote).queryByTestId(TID.mcpOutsideSandbox)).toBeNull();
    await user.type(within(files).getByTestId(TID.mcpReadable), "/var/run/docker.sock{Enter}/home/me/.config/srv");
    expect(settings().mcpServers?.files?.readable).toEqual(["/var/run/docker.sock", "/home/me/.config/srv"]);
    expect(within(files).queryByTestId(TID.mcpOutsideSandboxWarning)).toBeNull();
    await user.click(within(files).getByTestId(TID.mcpOutsideSandbox));
    expect(settings().mcpServers?.files?.outsideSandbox).toBe(true);
    expect(within(files).getByTestId(TID.mcpOutsideSandboxWarning)).toHaveTextContent("can read your keys");
    expect(within(files).queryByTestId(TID.mcpReadable)).toBeNull();
  });

  it("lets a server ask for the model only once switched on", async () => {
    const user = userEvent.setup();
    const settings = renderSection({ mcpServers: { files: { command: "mcp-files" } } });
    expect(screen.getByTestId(TID.mcpSampling)).not.toBeChecked();
    await user.click(screen.getByTestId(TID.mcpSampling));
    expect(settings().mcpServers?.files?.sampling).toBe(true);
    await user.click(screen.getByTestId(TID.mcpSampling));
    expect(settings().mcpServers?.files?.sampling).toBe(false);
  });

  it("splits a command line as a shell would for words and quotes", () => {
    expect(splitCommandLine(`uvx mcp-server-git --repository 'my repo' "a \\"b\\""`)).toEqual([
      "uvx",
      "mcp-server-git",
      "--repository",
      "my repo",
      'a "b"',
    ]);
  });
});
