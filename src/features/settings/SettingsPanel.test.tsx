import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import { useState } from "react";
import type { KeyStatus, Settings, ToolInfo } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { SettingsPanel } from "./SettingsPanel";

type Handler = (args: Record<string, unknown>) => unknown;
let calls: { cmd: string; args: Record<string, unknown> }[];
let keyStore: Set<string>;
/** What the project's cache layer holds, as sandbox_status reports it. */
let layerBytes = 0;

function mock(overrides: Record<string, Handler> = {}) {
  calls = [];
  keyStore = new Set();
  const handlers: Record<string, Handler> = {
    keys_set: (a) => void keyStore.add(a.name as string),
    keys_delete: (a) => void keyStore.delete(a.name as string),
    keys_status: () =>
      (["anthropic", "openai", "openai_compatible", "brave"] as const).map((name) => ({ name, isSet: keyStore.has(name) })),
    settings_set: () => null,
    settings_integrity: () => ({ trusted: true, problem: null }),
    sandbox_status: () => ({
      contained: true,
      mechanism: "bubblewrap + seccomp",
      writable: [],
      caches: ["/home/me/.cargo/registry"],
      layered: true,
      layerUnavailable: null,
      cacheLayerBytes: layerBytes,
      hidden: ["/home/me/.ssh"],
      readable: ["/home/me/.cargo/bin"],
      credentialLocations: ["/home/me/.ssh", "/home/me/.aws"],
      registryHosts: ["index.crates.io:443", "registry.npmjs.org:443"],
    }),
    provider_models: () => [],
    tools_catalog: () => CATALOG,
    mcp_status: () => [],
    mcp_project_offer: () => null,
    instructions_in_use: () => ({ files: [], global: false }),
    rules_list: () => [],
    conventions_list: () => ({ skills: [], commands: [], problems: [] }),
    hooks_project_offer: () => null,
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

const CATALOG: ToolInfo[] = [
  { name: "file_read", label: "Read files", category: "fileRead", danger: "safe", inDefaultScope: true },
  { name: "list_dir", label: "List folders", category: "fileRead", danger: "safe", inDefaultScope: true },
  { name: "file_write", label: "Create and overwrite files", category: "fileChange", danger: "dangerous", inDefaultScope: false },
  { name: "bash", label: "Run commands", category: "exec", danger: "dangerous", inDefaultScope: false },
];

const SETTINGS: Settings = {
  trustLevel: "guided",
  activeProvider: "anthropic",
  providers: {},
  projectDir: null,
  toolPermissions: {},
  approvalTimeoutSecs: 30,
  searxngUrl: "http://localhost:8080",
};

function Harness({
  initial = SETTINGS,
  onSaved = () => {},
  onClose = () => {},
}: {
  initial?: Settings;
  onSaved?: (s: Settings) => void;
  onClose?: () => void;
}) {
  const [keys, setKeys] = useState<KeyStatus[]>([]);
  return <SettingsPanel initial={initial} keys={keys} onSaved={onSaved} onKeysChanged={setKeys} onClose={onClose} />;
}

/** Settings save themselves shortly after a change: wait until the last change is written. */
const settled = () =>
  waitFor(() => expect(screen.getByTestId(TID.settingsSaved)).toHaveTextContent("Saved ✓"), { timeout: 3000 });

const callsOf = (cmd: string) => calls.filter((c) => c.cmd === cmd).map((c) => c.args);

beforeEach(() => {
  layerBytes = 0;
  mock();
});

describe("SettingsPanel", () => {
  it("sends a key straight to the keychain, clears the field and never renders it back", async () => {
    const { container } = render(<Harness />);
    const input = screen.getByTestId(TID.keyInput.anthropic);
    expect(input).toHaveAttribute("type", "password");
    expect(screen.getByTestId(TID.keyStatus.anthropic)).toHaveTextContent("No key");
    await userEvent.type(input, "sk-ant-very-secret");
    await userEvent.click(screen.getByTestId(TID.keySave.anthropic));
    expect(callsOf("keys_set")).toEqual([{ name: "anthropic", value: "sk-ant-very-secret" }]);
    expect(input).toHaveValue("");
    await waitFor(() => expect(screen.getByTestId(TID.keyStatus.anthropic)).toHaveTextContent("Key set ✓"));
    expect(container.innerHTML).not.toContain("sk-ant-very-secret");
    // The key never travels in the settings either.
    expect(JSON.stringify(calls.filter((c) => c.cmd !== "keys_set"))).not.toContain("sk-ant-very-secret");
  });

  it("removes a stored key", async () => {
    render(<Harness />);
    await userEvent.type(screen.getByTestId(TID.keyInput.openai), "sk-x{Enter}");
    await waitFor(() => expect(screen.getByTestId(TID.keyStatus.openai)).toHaveTextContent("Key set ✓"));
    await userEvent.click(screen.getByTestId(TID.keyRemove.openai));
    expect(callsOf("keys_delete")).toEqual([{ name: "openai" }]);
    await waitFor(() => expect(screen.getByTestId(TID.keyStatus.openai)).toHaveTextContent("No key"));
  });

  it("asks for the keys' status each time it opens (a key's verdict changes as messages go)", async () => {
    render(<Harness />);
    await waitFor(() => expect(callsOf("keys_status")).toHaveLength(1));
  });

  it("says whether the provider accepted a stored key when it was last sent", async () => {
    const at = new Date(2026, 10, 23, 14, 5).getTime();
    // As the window's locale writes a time of day.
    const hhmm = new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    const keys: KeyStatus[] = [
      { name: "anthropic", isSet: true, lastCheck: { accepted: false, atMs: at } },
      { name: "openai", isSet: true, lastCheck: { accepted: true, atMs: at } },
      { name: "openai_compatible", isSet: true, lastCheck: null },
      { name: "brave", isSet: true },
    ];
    render(<SettingsPanel initial={SETTINGS} keys={keys} onSaved={() => {}} onKeysChanged={() => {}} onClose={() => {}} />);
    const anthropic = screen.getByTestId(TID.keyStatus.anthropic);
    expect(anthropic).toHaveTextContent(`Key set · rejected by the provider at ${hhmm}: replace it`);
    expect(anthropic).toHaveAttribute("data-accepted", "false");
    expect(screen.getByTestId(TID.keyStatus.openai)).toHaveTextContent(`Key set ✓ · accepted at ${hhmm}`);
    expect(screen.getByTestId(TID.keyStatus.openai_compatible)).toHaveTextContent("Key set ✓ (not used yet)");
    expect(screen.getByTestId(TID.keyStatus.brave)).toHaveTextContent(/^Key set ✓$/);
  });

  it("closing with Esc or Close never drops a change: what is unsaved is saved first", async () => {
    let closed = 0;
    render(<Harness onClose={() => (closed += 1)} />);
    await userEvent.click(screen.getByTestId(TID.trustLevel.supervised));
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(closed).toBe(1));
    expect((callsOf("settings_set")[0]?.settings as Settings).trustLevel).toBe("supervised");
    // Nothing left to save: Close just closes.
    await userEvent.click(screen.getByTestId(TID.settingsClose));
    await waitFor(() => expect(closed).toBe(2));
    expect(callsOf("settings_set")).toHaveLength(1);
  });

  it("saves each change shortly after it is made, once for a burst of typing, newest last", async () => {
    let saved: Settings | null = null;
    render(<Harness onSaved={(s) => (saved = s)} />);
    await userEvent.type(screen.getByTestId(TID.searxngUrl), "/search");
    await settled();
    expect(callsOf("settings_set")).toHaveLength(1);
    expect((callsOf("settings_set")[0]?.settings as Settings).searxngUrl).toBe("http://localhost:8080/search");
    expect(saved).toMatchObject({ searxngUrl: "http://localhost:8080/search" });

    // The Anthropic and OpenAI addresses are editable too (a proxy, a gateway).
    await userEvent.type(screen.getByTestId(TID.baseUrl.anthropic), "http://127.0.0.1:9/proxy");
    await settled();
    const last = callsOf("settings_set").at(-1)?.settings as Settings;
    expect(last.providers?.anthropic?.baseUrl).toBe("http://127.0.0.1:9/proxy");
  });

  it("writes a pending change before loading models or testing, so both use what is shown", async () => {
    const order: string[] = [];
    mock({
      settings_set: () => void order.push("settings_set"),
      provider_models: () => (order.push("provider_models"), []),
      provider_test: () => void order.push("provider_test"),
    });
    render(<Harness />);
    const section = screen.getByTestId(TID.providerSection.openai_compatible);
    await userEvent.type(screen.getByTestId(TID.baseUrl.openai_compatible), "http://127.0.0.1:8000/v1");
    await userEvent.click(within(section).getByText("Load models"));
    await waitFor(() => expect(order).toEqual(["settings_set", "provider_models"]));
    await userEvent.type(screen.getByTestId(TID.baseUrl.openai_compatible), "/x");
    await userEvent.click(screen.getByTestId(TID.testConnection.openai_compatible));
    await waitFor(() => expect(order).toEqual(["settings_set", "provider_models", "settings_set", "provider_test"]));
    const written = callsOf("settings_set").at(-1)?.settings as Settings;
    expect(written.providers?.openai_compatible?.baseUrl).toBe("http://127.0.0.1:8000/v1/x");
  });

  it("stays open and says why when saving on close fails", async () => {
    mock({
      settings_set: () => {
        throw { code: "SETTINGS", message: "The disk is full." };
      },
    });
    let closed = 0;
    render(<Harness onClose={() => (closed += 1)} />);
    await userEvent.click(screen.getByTestId(TID.trustLevel.supervised));
    await userEvent.click(screen.getByTestId(TID.settingsClose));
    expect(await screen.findByText(/The disk is full/)).toBeInTheDocument();
    expect(closed).toBe(0);
  });

  it("saves the chosen trust level through settings_set", async () => {
    let saved: Settings | null = null;
    render(<Harness onSaved={(s) => (saved = s)} />);
    expect(screen.getByTestId(TID.trustLevel.guided)).toBeChecked();
    expect(screen.getByText(/Every tool call waits for your approval/)).toBeInTheDocument();
    // Saved as it changes: there is no Save button to forget.
    expect(screen.queryByTestId(TID.settingsSave)).toBeNull();
    await userEvent.click(screen.getByTestId(TID.trustLevel.autonomous));
    await settled();
    const sent = callsOf("settings_set")[0]?.settings as Settings;
    expect(sent.trustLevel).toBe("autonomous");
    expect(saved).toMatchObject({ trustLevel: "autonomous" });
    expect(screen.getByTestId(TID.settingsSaved)).toHaveTextContent("Saved ✓");
  });

  it("shows what Warden found out about a local server's models, and undoes it", async () => {
    const url = "http://127.0.0.1:8080/v1";
    const initial = {
      ...SETTINGS,
      providers: { openai_compatible: { baseUrl: url, model: "smollm2" } },
      learnedModels: [
        {
          baseUrl: url,
          model: "smollm2",
          tools: { native: false, decidedBy: "probe", reason: "asked to call a tool, the model answered in text" },
          contextWindow: 2048,
        },
        { baseUrl: "http://10.0.0.9:8000/v1", model: "other", tools: null, contextWindow: 4096 },
      ],
    } as Settings;
    let saved: Settings | null = null;
    render(<Harness initial={initial} onSaved={(s) => (saved = s)} />);
    const section = screen.getByTestId(TID.providerSection.openai_compatible);
    const entries = within(section).getAllByTestId(TID.learnedModel);
    expect(entries.map((e) => e.getAttribute("data-model"))).toEqual(["smollm2"]);
    expect(within(entries[0]!).getByTestId(TID.learnedTools)).toHaveTextContent(
      "Tools described in the prompt (Warden asked the model to call a tool once: asked to call a tool, the model answered in text)",
    );
    expect(entries[0]).toHaveTextContent("Context window 2.0k tokens");
    // Undo: native tools again, as the user's own choice, which Warden then keeps.
    await userEvent.click(within(entries[0]!).getByTestId(TID.learnedToolsSwitch));
    await settled();
    const sent = callsOf("settings_set").at(-1)?.settings as Settings;
    expect(sent.learnedModels?.[0]?.tools).toEqual({ native: true, decidedBy: "user", reason: "chosen in Settings" });
    expect(within(section).getByTestId(TID.learnedTools)).toHaveTextContent("Native tool calls (your choice)");
    // Forget: the entry goes, the other server's stays.
    await userEvent.click(within(section).getByTestId(TID.learnedForget));
    await settled();
    expect(within(section).queryByTestId(TID.learnedModel)).toBeNull();
    expect((saved as Settings | null)?.learnedModels?.map((m) => m.model)).toEqual(["other"]);
  });

  it("shows the result of a connection test, success and failure", async () => {
    // The command answers nothing on success, as the Rust side does.
    mock({ provider_test: (a) => (a.provider === "ollama" ? null : Promise.reject("401: invalid x-api-key")) });
    render(<Harness />);
    await userEvent.click(screen.getByTestId(TID.testConnection.ollama));
    await waitFor(() => expect(screen.getByTestId(TID.testResult.ollama)).toHaveTextContent("✓ Connection works"));
    await userEvent.click(screen.getByTestId(TID.testConnection.anthropic));
    await waitFor(() => expect(screen.getByTestId(TID.testResult.anthropic)).toHaveTextContent("✕ 401: invalid x-api-key"));
    expect(callsOf("provider_test")).toEqual([{ provider: "ollama" }, { provider: "anthropic" }]);
  });

  it("saves unsaved edits before testing, so the test uses the URL on screen", async () => {
    mock({ provider_test: () => null });
    render(<Harness />);
    await userEvent.type(screen.getByTestId(TID.baseUrl.ollama), "http://127.0.0.1:11434");
    await userEvent.click(screen.getByTestId(TID.testConnection.ollama));
    await waitFor(() => expect(screen.getByTestId(TID.testResult.ollama)).toBeInTheDocument());
    const background = ["settings_integrity", "sandbox_status", "keys_status", "tools_catalog", "mcp_status", "mcp_project_offer", "instructions_in_use", "rules_list", "conventions_list", "hooks_project_offer"];
    expect(calls.map((c) => c.cmd).filter((c) => !background.includes(c))).toEqual(["settings_set", "provider_test"]);
    expect((callsOf("settings_set")[0]!.settings as Settings).providers?.ollama?.baseUrl).toBe("http://127.0.0.1:11434");
  });

  it("lists models with a tools badge and saves the choice", async () => {
    mock({
      provider_models: () => [
        { id: "llama3.2", displayName: null, supportsTools: true, contextWindow: 131072 },
        { id: "gemma2", displayName: null, supportsTools: false, contextWindow: null },
      ],
    });
    render(<Harness initial={{ ...SETTINGS, activeProvider: "ollama" }} />);
    const picker = screen.getByTestId(TID.modelPicker.ollama);
    // The empty choice names the model the engine answers with, from the first render on.
    expect(within(picker).getByRole("option", { name: "llama3.2 (default)" })).toHaveValue("");
    await waitFor(() => expect(within(picker).getByText("llama3.2 · tools")).toBeInTheDocument());
    expect(within(picker).getByText("gemma2")).toBeInTheDocument();
    await userEvent.selectOptions(picker, "gemma2");
    expect(screen.queryByTestId(TID.toolsBadge)).toBeNull();
    await userEvent.selectOptions(picker, "llama3.2");
    expect(screen.getByTestId(TID.toolsBadge)).toBeInTheDocument();
    await settled();
    const sent = callsOf("settings_set")[0]!.settings as Settings;
    expect(sent.providers?.ollama).toMatchObject({ model: "llama3.2", contextWindow: 131072 });
  });

  it("marks the models that read images with an images badge", async () => {
    mock({
      provider_models: () => [
        { id: "llava:13b", displayName: null, supportsTools: false, contextWindow: null, takesImages: true },
        { id: "qwen2.5-coder:7b", displayName: null, supportsTools: true, contextWindow: null, takesImages: false },
      ],
    });
    render(<Harness initial={{ ...SETTINGS, activeProvider: "ollama" }} />);
    const picker = screen.getByTestId(TID.modelPicker.ollama);
    await waitFor(() => expect(within(picker).getByText("llava:13b · images")).toBeInTheDocument());
    expect(within(picker).getByText("qwen2.5-coder:7b · tools")).toBeInTheDocument();
    await userEvent.selectOptions(picker, "qwen2.5-coder:7b");
    expect(screen.queryByTestId(TID.imagesBadge)).toBeNull();
    expect(screen.getByTestId(TID.toolsBadge)).toBeInTheDocument();
    await userEvent.selectOptions(picker, "llava:13b");
    expect(screen.getByTestId(TID.imagesBadge)).toHaveTextContent("images");
    expect(screen.queryByTestId(TID.toolsBadge)).toBeNull();
    await settled();
  });

  it("picks a project folder and edits its tool permissions", async () => {
    mock({ pick_project_folder: () => "/home/me/proj" });
    render(<Harness />);
    expect(screen.queryByTestId(TID.bashTimeout)).toBeNull();
    await userEvent.click(screen.getByTestId(TID.projectPick));
    await waitFor(() => expect(screen.getByTestId(TID.projectDir)).toHaveTextContent("/home/me/proj"));
    const bash = screen.getAllByTestId(TID.allowedTool).find((e) => e.getAttribute("data-tool") === "bash")!;
    expect(bash).not.toBeChecked();
    // The engine's catalog: plain-language labels, and its default scope checked.
    expect(bash.closest("label")).toHaveTextContent("Run commands");
    const read = screen.getAllByTestId(TID.allowedTool).find((e) => e.getAttribute("data-tool") === "file_read")!;
    expect(read).toBeChecked();
    await userEvent.click(bash);
    await userEvent.type(screen.getByTestId(TID.writeGlobs), "src/**{Enter}docs/*.md");
    await userEvent.clear(screen.getByTestId(TID.bashTimeout));
    await userEvent.type(screen.getByTestId(TID.bashTimeout), "120");
    await settled();
    const sent = callsOf("settings_set")[0]!.settings as Settings;
    expect(sent.projectDir).toBe("/home/me/proj");
    const perms = sent.toolPermissions?.["/home/me/proj"];
    expect(perms?.allowedTools).toContain("bash");
    expect(perms?.allowedTools).toContain("file_read");
    expect(perms?.writeGlobs).toEqual(["src/**", "docs/*.md"]);
    expect(perms?.bashTimeoutSecs).toBe(120);
  });

  it("turns the project's checkpoints off and on again, on by default", async () => {
    const initial: Settings = {
      ...SETTINGS,
      projectDir: "/home/me/proj",
      toolPermissions: { "/home/me/proj": { allowedTools: ["file_read"], writeGlobs: [], bashTimeoutSecs: 60, network: "off", extraWritable: [] } },
    };
    render(<Harness initial={initial} />);
    const toggle = screen.getByTestId(TID.checkpointsToggle);
    expect(toggle).toBeChecked();
    expect(toggle.closest("label")).toHaveTextContent("Checkpoints before every change");
    await userEvent.click(toggle);
    await settled();
    const off = (callsOf("settings_set")[0]!.settings as Settings).toolPermissions?.["/home/me/proj"];
    expect(off).toMatchObject({ checkpoints: false, allowedTools: ["file_read"] });
    await userEvent.click(toggle);
    await settled();
    expect((callsOf("settings_set")[1]!.settings as Settings).toolPermissions?.["/home/me/proj"]?.checkpoints).toBe(true);
  });

  it("shows how commands are contained, on the network through the proxy by default, and saves the project's network and extra folders", async () => {
    mock({ pick_project_folder: () => "/home/me/proj" });
    render(<Harness />);
    await waitFor(() =>
      expect(screen.getByTestId(TID.sandboxMechanism)).toHaveTextContent("Commands run in an OS sandbox (bubblewrap + seccomp)"),
    );
    expect(screen.getByText("/home/me/.cargo/registry")).toBeInTheDocument();
    expect(screen.queryByTestId(TID.sandboxNetwork)).toBeNull();
    await userEvent.click(screen.getByTestId(TID.projectPick));
    await waitFor(() => expect(screen.getByTestId(TID.sandboxNetwork)).toBeChecked());
    await userEvent.click(screen.getByTestId(TID.sandboxNetwork));
    await userEvent.type(screen.getByTestId(TID.sandboxWritable), "/srv/out{Enter}/var/cache/build");
    await settled();
    const perms = (callsOf("settings_set")[0]!.settings as Settings).toolPermissions?.["/home/me/proj"];
    expect(perms?.network).toBe("off");
    expect(perms?.extraWritable).toEqual(["/srv/out", "/var/cache/build"]);
  });

  it("switches the registries preset on for a project with the network and lists its hosts", async () => {
    mock({ pick_project_folder: () => "/home/me/proj" });
    render(<Harness />);
    await waitFor(() => expect(screen.getByText("/home/me/.cargo/bin")).toBeInTheDocument());
    await userEvent.click(screen.getByTestId(TID.projectPick));
    const registries = await screen.findByTestId(TID.sandboxRegistries);
    expect(registries).toBeEnabled();
    expect(registries).not.toBeChecked();
    await userEvent.click(screen.getByTestId(TID.sandboxNetwork));
    await waitFor(() => expect(screen.getByTestId(TID.sandboxRegistries)).toBeDisabled());
    await userEvent.click(screen.getByTestId(TID.sandboxNetwork));
    await waitFor(() => expect(screen.getByTestId(TID.sandboxRegistries)).toBeEnabled());
    expect(screen.queryByTestId(TID.sandboxRegistryHosts)).toBeNull();
    await userEvent.click(screen.getByTestId(TID.sandboxRegistries));
    await settled();
    const perms = (callsOf("settings_set").at(-1)!.settings as Settings).toolPermissions?.["/home/me/proj"];
    expect(perms?.network).toBe("rules");
    expect(perms?.allowRegistries).toBe(true);
    expect(screen.getByTestId(TID.sandboxRegistryHosts)).toHaveTextContent("registry.npmjs.org:443");
  });

  it("saves the paths a project's commands may read and warns about each credential location among them", async () => {
    mock({ pick_project_folder: () => "/home/me/proj" });
    render(<Harness />);
    await waitFor(() => expect(screen.getByText("/home/me/.cargo/bin")).toBeInTheDocument());
    await userEvent.click(screen.getByTestId(TID.projectPick));
    const readable = await screen.findByTestId(TID.sandboxReadable);
    await userEvent.type(readable, "/home/me/datasets{Enter}/home/me/.aws/config{Enter}/home/me/.awsome");
    await settled();
    const perms = (callsOf("settings_set").at(-1)!.settings as Settings).toolPermissions?.["/home/me/proj"];
    expect(perms?.extraReadable).toEqual(["/home/me/datasets", "/home/me/.aws/config", "/home/me/.awsome"]);
    const warnings = screen.getAllByTestId(TID.sandboxReadableWarning);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toHaveTextContent("/home/me/.aws/config is where credentials are kept");
  });

  it("saves the hosts a project's commands may reach as its network rules, keeping its other rules", async () => {
    const kept = { effect: "deny" as const, tool: "network", pattern: "*.tracker.example" };
    const initial: Settings = {
      ...SETTINGS,
      projectDir: "/home/me/proj",
      permissionRules: [{ effect: "allow", tool: "network", pattern: "crates.io" }],
      toolPermissions: {
        "/home/me/proj": {
          allowedTools: null,
          writeGlobs: [],
          bashTimeoutSecs: 60,
          network: "rules",
          extraWritable: [],
          checkpoints: true,
          permissionRules: [kept, { effect: "allow", tool: "network", pattern: "old.internal" }],
        },
      },
    };
    render(<Harness initial={initial} />);
    const hosts = await screen.findByTestId(TID.sandboxHosts);
    expect(hosts).toHaveValue("old.internal");
    expect(screen.getByTestId(TID.sandboxUserRules)).toHaveTextContent("allow crates.io");
    await userEvent.clear(hosts);
    await userEvent.type(hosts, "192.168.1.20:8080{Enter}*.corp.example");
    await settled();
    const saved = callsOf("settings_set").at(-1)!.settings as Settings;
    expect(saved.toolPermissions?.["/home/me/proj"]?.permissionRules).toEqual([
      kept,
      { effect: "allow", tool: "network", pattern: "192.168.1.20:8080" },
      { effect: "allow", tool: "network", pattern: "*.corp.example" },
    ]);
    expect(saved.permissionRules).toEqual(initial.permissionRules);
  });

  it("shows the project's cache layer and clears it", async () => {
    layerBytes = 3 * 1024 * 1024;
    mock({
      sandbox_clear_cache_layer: () => {
        layerBytes = 0;
        return null;
      },
    });
    render(<Harness />);
    const row = await screen.findByTestId(TID.sandboxCacheLayer);
    expect(row).toHaveTextContent("3.0 MB");
    expect(screen.getByTestId(TID.sandboxMechanism)).toHaveTextContent("goes to this project's own layer");
    await userEvent.click(screen.getByTestId(TID.sandboxCacheLayerClear));
    await waitFor(() => expect(screen.getByTestId(TID.sandboxCacheLayer)).toHaveTextContent("0 B"));
    expect(callsOf("sandbox_clear_cache_layer")).toHaveLength(1);
    expect(screen.getByTestId(TID.sandboxCacheLayerClear)).toBeDisabled();
  });

  it("says why the caches get no layer on a machine whose box cannot mount it", async () => {
    const why = "Linux 5.10.0 cannot mount overlayfs in a user namespace (5.11 and later can)";
    mock({
      sandbox_status: () => ({
        contained: true,
        mechanism: "bubblewrap + seccomp",
        writable: [],
        caches: ["/home/me/.cargo/registry"],
        layered: false,
        layerUnavailable: why,
        cacheLayerBytes: 0,
        hidden: [],
        readable: [],
        credentialLocations: [],
      }),
    });
    render(<Harness />);
    const row = await screen.findByTestId(TID.sandboxCacheLayer);
    expect(row).toHaveTextContent(why);
    expect(row).toHaveTextContent("stay read-only");
    expect(screen.queryByTestId(TID.sandboxCacheLayerClear)).toBeNull();
    expect(screen.getByTestId(TID.sandboxMechanism)).toHaveTextContent("your package caches are read-only");
  });

  it("lists the organisation's rules, read-only, and says when its policy cannot be used", async () => {
    const file = "/etc/warden/managed-settings.json";
    const base = {
      contained: true,
      mechanism: "bubblewrap + seccomp",
      writable: [],
      caches: [],
      layered: true,
      layerUnavailable: null,
      cacheLayerBytes: 0,
      hidden: [],
      readable: [],
      credentialLocations: [],
      registryHosts: [],
    };
    const rules = [
      { effect: "deny", tool: "network", pattern: "*.pastebin.com" },
      { effect: "allow", tool: "network", pattern: "registry.corp.example:443" },
    ];
    mock({ sandbox_status: () => ({ ...base, managed: { file, rules, problem: null, warnings: ['"futureSetting" is not a setting this version of Warden knows'] } }) });
    const { unmount } = render(<Harness />);
    const listed = await screen.findByTestId(TID.sandboxManaged);
    expect(listed).toHaveTextContent("Set by your organisation for every project (2;");
    expect(listed).toHaveTextContent("deny *.pastebin.com");
    expect(listed).toHaveTextContent("allow registry.corp.example:443");
    expect(listed).toHaveTextContent("futureSetting");
    expect(within(listed).queryByRole("textbox")).toBeNull();
    expect(within(listed).queryByRole("button")).toBeNull();
    unmount();

    mock({ sandbox_status: () => ({ ...base, managed: { file, rules: [], problem: "not JSON: expected value at line 1 column 1", warnings: [] } }) });
    const again = render(<Harness />);
    const problem = await screen.findByTestId(TID.sandboxManagedProblem);
    expect(problem).toHaveTextContent(`${file}) cannot be used: not JSON`);
    expect(problem).toHaveTextContent("commands reach no host");
    again.unmount();

    mock({ sandbox_status: () => ({ ...base, managed: { file, rules: [], problem: null, warnings: [] } }) });
    render(<Harness />);
    await screen.findByTestId(TID.sandboxMechanism);
    await waitFor(() => expect(screen.getByTestId(TID.sandboxMechanism)).toHaveTextContent("OS sandbox"));
    expect(screen.queryByTestId(TID.sandboxManaged)).toBeNull();
  });

  it("saves what is pending before a rule is added, then takes the saved settings again", async () => {
    const kept = { effect: "deny" as const, tool: "bash", pattern: "git push *", origin: { kind: "typed" as const } };
    const savedByEngine: Settings = { ...SETTINGS, searxngUrl: "http://search.test", permissionRules: [kept] };
    let saved: Settings | null = null;
    mock({ rules_add: () => null, settings_get: () => savedByEngine });
    render(<Harness onSaved={(s) => (saved = s)} />);
    await screen.findByTestId(TID.permissions);
    const url = screen.getByTestId(TID.searxngUrl);
    await userEvent.clear(url);
    await userEvent.type(url, "http://search.test");
    await userEvent.selectOptions(screen.getByTestId(TID.ruleEffect), "deny");
    await userEvent.type(screen.getByTestId(TID.ruleTool), "bash");
    await userEvent.type(screen.getByTestId(TID.rulePattern), "git push *");
    await userEvent.selectOptions(screen.getByTestId(TID.ruleScope), "user");
    await userEvent.click(screen.getByTestId(TID.ruleAdd));
    await waitFor(() => expect(saved).toEqual(savedByEngine));
    const order = calls.map((c) => c.cmd).filter((c) => ["settings_set", "rules_add", "settings_get"].includes(c));
    expect(order).toEqual(["settings_set", "rules_add", "settings_get"]);
    expect(callsOf("rules_add")).toEqual([{ scope: "user", rule: kept }]);
    // A later change saves the rule the engine kept, not the rules from before it.
    await userEvent.click(screen.getByTestId(TID.theme.dark));
    await settled();
    expect((callsOf("settings_set").at(-1)!.settings as Settings).permissionRules).toEqual([kept]);
  });

  it("says plainly when commands are not contained", async () => {
    mock({ sandbox_status: () => ({ contained: false, mechanism: "none: bubblewrap is not installed", writable: [], caches: [], hidden: [] }) });
    render(<Harness />);
    await waitFor(() => expect(screen.getByTestId(TID.sandboxMechanism)).toHaveTextContent("Commands are not contained on this machine"));
    expect(screen.getByTestId(TID.sandboxMechanism)).toHaveTextContent("even in Autonomous");
  });

  it("switches the theme at once and saves it", async () => {
    render(<Harness />);
    expect(screen.getByTestId(TID.theme.system)).toBeChecked();
    await userEvent.click(screen.getByTestId(TID.theme.dark));
    expect(document.documentElement.dataset.theme).toBe("dark");
    await settled();
    expect(callsOf("settings_set")[0]!.settings).toMatchObject({ theme: "dark" });
  });

  it("offers no time limit for approvals, saved as 0", async () => {
    render(<Harness />);
    await userEvent.click(screen.getByTestId(TID.approvalNoLimit));
    expect(screen.getByTestId(TID.approvalTimeout)).toBeDisabled();
    await settled();
    expect(callsOf("settings_set")[0]!.settings).toMatchObject({ approvalTimeoutSecs: 0 });
  });

  it("saves the approval timeout, SearXNG URL and takes a Brave key", async () => {
    render(<Harness />);
    await userEvent.clear(screen.getByTestId(TID.approvalTimeout));
    await userEvent.type(screen.getByTestId(TID.approvalTimeout), "90");
    await userEvent.clear(screen.getByTestId(TID.searxngUrl));
    await userEvent.type(screen.getByTestId(TID.searxngUrl), "http://localhost:8888");
    await userEvent.type(screen.getByTestId(TID.keyInput.brave), "brv{Enter}");
    await settled();
    expect(callsOf("settings_set")[0]!.settings).toMatchObject({ approvalTimeoutSecs: 90, searxngUrl: "http://localhost:8888" });
    expect(callsOf("keys_set")).toEqual([{ name: "brave", value: "brv" }]);
  });

  it("saves the global instructions as they are typed, and says when only part of them reaches the model", async () => {
    render(<Harness />);
    const text = screen.getByTestId(TID.globalInstructions);
    expect(text).toHaveValue("");
    await userEvent.type(text, "Answer in French.");
    await settled();
    expect(callsOf("settings_set")).toHaveLength(1);
    expect((callsOf("settings_set")[0]?.settings as Settings).globalInstructions).toBe("Answer in French.");
    expect(screen.queryByTestId(TID.globalInstructionsTooLong)).toBeNull();
    // Pasted: 17 KB, one KB more than the model gets.
    await userEvent.click(text);
    await userEvent.paste("x".repeat(17 * 1024));
    expect(screen.getByTestId(TID.globalInstructionsTooLong)).toHaveTextContent("only the first 16 KB reach the model");
  });

  it("lists the project's instruction files in use and opens one in the user's own app", async () => {
    const file = { path: "/home/me/app/AGENTS.md", relativePath: "AGENTS.md", bytes: 300, truncated: false };
    mock({ instructions_in_use: () => ({ files: [file], global: false }), instructions_open: () => null });
    render(<Harness initial={{ ...SETTINGS, projectDir: "/home/me/app", globalInstructions: "Be brief." }} />);
    expect(screen.getByTestId(TID.globalInstructions)).toHaveValue("Be brief.");
    const open = await screen.findByTestId(TID.instructionFileOpen);
    expect(open).toHaveTextContent("AGENTS.md");
    await userEvent.click(open);
    await waitFor(() => expect(callsOf("instructions_open")).toEqual([{ path: file.path }]));
  });

  it("says when the project folder has no instruction file", async () => {
    render(<Harness initial={{ ...SETTINGS, projectDir: "/home/me/app" }} />);
    expect(await screen.findByTestId(TID.instructionFilesNone)).toHaveTextContent("no AGENTS.md (or CLAUDE.md)");
  });
});

describe("SettingsPanel's keyboard and navigation", () => {
  it("closes with Esc when the focus fell to the page, and Esc in a control that takes it does not", async () => {
    let closed = 0;
    render(<Harness onClose={() => (closed += 1)} />);
    // The panel has the focus as it opens: Esc there closes it.
    expect(screen.getByTestId(TID.settingsPanel)).toHaveFocus();
    // A button that disabled itself, or Ctrl+, from a field that went away: the focus is on the page.
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(closed).toBe(1));
    // Esc in the filter with words in it empties it, and Settings stay.
    await userEvent.type(screen.getByTestId(TID.settingsFilter), "theme");
    await userEvent.keyboard("{Escape}");
    expect(screen.getByTestId(TID.settingsFilter)).toHaveValue("");
    expect(closed).toBe(1);
  });

  it("shows the rejection when Test connection finds the stored key refused", async () => {
    let check: { accepted: boolean; atMs: number } | null = null;
    mock({
      keys_status: () => [{ name: "anthropic", isSet: true, lastCheck: check }],
      provider_test: () => {
        check = { accepted: false, atMs: Date.UTC(2025, 0, 1, 12, 0) };
        throw { code: "AUTH_FAILED", message: "The Anthropic key was refused." };
      },
    });
    render(<Harness />);
    await waitFor(() => expect(screen.getByTestId(TID.keyStatus.anthropic)).toHaveTextContent("Key set ✓ (not used yet)"));
    await userEvent.click(screen.getByTestId(TID.testConnection.anthropic));
    expect(await screen.findByTestId(TID.testResult.anthropic)).toHaveTextContent("refused");
    await waitFor(() => expect(screen.getByTestId(TID.keyStatus.anthropic)).toHaveTextContent("rejected by the provider"));
    expect(screen.getByTestId(TID.keyStatus.anthropic)).toHaveAttribute("data-accepted", "false");
  });

  it("lists its sections, each a button that goes to it", async () => {
    render(<Harness />);
    const nav = screen.getByTestId(TID.settingsNav);
    const items = within(nav).getAllByTestId(TID.settingsNavItem);
    expect(items.map((i) => i.textContent)).toEqual([
      "Trust level",
      "Model providers",
      "Project",
      "Instructions",
      "Skills",
      "Sandbox",
      "Permissions",
      "Hooks",
      "MCP servers",
      "Appearance",
      "Limits",
      "Model prices",
      "Web search",
      "Updates",
    ]);
    const appearance = items.find((i) => i.getAttribute("data-section") === "appearance")!;
    appearance.focus();
    await userEvent.keyboard("{Enter}");
    const section = screen.getAllByTestId(TID.settingsSection).find((s) => s.getAttribute("data-section") === "appearance")!;
    expect(section).toHaveFocus();
    // Tab goes on to the section's first control.
    await userEvent.tab();
    expect(section).toContainElement(document.activeElement as HTMLElement);
  });

  it("narrows the sections to those holding the words typed", async () => {
    render(<Harness />);
    const sections = () =>
      screen
        .getAllByTestId(TID.settingsSection)
        .filter((s) => !s.hidden)
        .map((s) => s.getAttribute("data-section"));
    await userEvent.type(screen.getByTestId(TID.settingsFilter), "dark");
    expect(sections()).toEqual(["appearance"]);
    expect(within(screen.getByTestId(TID.settingsNav)).getAllByTestId(TID.settingsNavItem)).toHaveLength(1);
    // Words a section shows, not only its title: the approval timeout's label is under Limits.
    await userEvent.clear(screen.getByTestId(TID.settingsFilter));
    await userEvent.type(screen.getByTestId(TID.settingsFilter), "unanswered request");
    expect(sections()).toEqual(["limits"]);
    await userEvent.clear(screen.getByTestId(TID.settingsFilter));
    await userEvent.type(screen.getByTestId(TID.settingsFilter), "api key");
    expect(sections()).toContain("models");
    expect(sections()).not.toContain("appearance");
    await userEvent.clear(screen.getByTestId(TID.settingsFilter));
    await userEvent.type(screen.getByTestId(TID.settingsFilter), "quokka");
    expect(sections()).toEqual([]);
    expect(screen.getByTestId(TID.settingsNoMatch)).toHaveTextContent("No setting matches “quokka”");
    await userEvent.clear(screen.getByTestId(TID.settingsFilter));
    expect(sections()).toHaveLength(14);
  });

  it("opens at a section when asked (/permissions in the composer)", () => {
    render(<SettingsPanel initial={SETTINGS} keys={[]} onSaved={() => {}} onKeysChanged={() => {}} onClose={() => {}} focusOnOpen="permissions" />);
    const box = screen.getAllByTestId(TID.settingsSection).find((s) => s.getAttribute("data-section") === "permissions")!;
    expect(box).toHaveFocus();
  });
});
