import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import type { ConversationSummary, KeyStatus, Settings } from "../shared/ipc";
import { TID } from "../shared/testids";
import { App } from "./App";

const SETTINGS: Settings = {
  trustLevel: "guided",
  activeProvider: "anthropic",
  providers: {},
  projectDir: null,
  toolPermissions: {},
  approvalTimeoutSecs: 30,
  searxngUrl: "http://localhost:8080",
};

/** The engine's settings as saved: what `settings_get` answers, changed by `settings_set`. */
let engineSettings: Settings = SETTINGS;

type Boot = {
  keys?: KeyStatus[];
  ollama?: boolean | "fails";
  settings?: Settings;
  /** The conversations the engine lists. */
  saved?: ConversationSummary[];
  /** What `chat_send` answers: nothing (the turn streams), or a refusal. */
  sendFails?: { code: string; message: string };
};

function boot({ keys = [], ollama = false, settings = SETTINGS, saved = [], sendFails }: Boot) {
  const calls: { cmd: string; args: Record<string, unknown> }[] = [];
  engineSettings = settings;
  mockIPC(
    (cmd, args) => {
      calls.push({ cmd, args: (args ?? {}) as Record<string, unknown> });
      switch (cmd) {
        case "settings_get":
          return engineSettings;
        case "settings_set":
          engineSettings = (args as { settings: Settings }).settings;
          return null;
        case "keys_status":
          return keys;
        // What the engine answers, for these keys and this Ollama.
        case "provider_readiness": {
          const provider = (args as { provider: string }).provider;
          if (provider === "ollama") {
            if (ollama === "fails") throw new Error("connection refused");
            return ollama ? { ready: true, reason: null } : { ready: false, reason: "Ollama did not answer within 2 s: is it running?" };
          }
          return keys.some((k) => k.name === provider && k.isSet)
            ? { ready: true, reason: null }
            : { ready: false, reason: `no API key for ${provider}: set ${provider.toUpperCase()}_API_KEY or store one in the keychain` };
        }
        case "chat_history":
          return [];
        case "chat_list":
          return { conversations: saved, nextOffset: null };
        case "chat_send":
          if (sendFails) throw sendFails;
          return null;
        case "provider_models":
          return [{ id: "claude-test", displayName: "Claude Test", supportsTools: true, contextWindow: 200000 }];
        case "pick_project_folder":
          return "/home/me/src/app";
        default:
          return null;
      }
    },
    { shouldMockEvents: true },
  );
  return calls;
}

describe("App first run", () => {
  it("opens a setup that leads to settings when no provider is usable", async () => {
    boot({ keys: [{ name: "anthropic", isSet: false }], ollama: false });
    render(<App />);
    await waitFor(() => expect(screen.getByTestId(TID.setupScreen)).toBeInTheDocument());
    expect(screen.queryByTestId(TID.setupUseOllama)).toBeNull();
    // A first run opens in words a person understands: no key yet is what the step asks for, not
    // an engine message about environment variables.
    expect(screen.getByTestId(TID.setupScreen)).toHaveTextContent("It needs two things from you");
    expect(screen.getByTestId(TID.setupScreen)).not.toHaveTextContent("API_KEY");
    expect(screen.queryByTestId(TID.setupWhy)).toBeNull();
    await userEvent.click(screen.getByTestId(TID.setupOpenSettings));
    expect(screen.getByTestId(TID.settingsPanel)).toBeInTheDocument();
    await userEvent.click(screen.getByTestId(TID.settingsClose));
    // The conversation opens once the engine listed the saved ones (none here: a new one).
    expect(await screen.findByTestId(TID.composerInput)).toBeInTheDocument();
  });

  it("focuses its first step, links to the key pages through the browser, and takes a project folder", async () => {
    const calls = boot({ keys: [{ name: "anthropic", isSet: false }], ollama: false });
    render(<App />);
    await waitFor(() => expect(screen.getByTestId(TID.setupKeyInput)).toHaveFocus());
    const links = screen.getByTestId(TID.setupKeyLinks);
    expect(links).toHaveTextContent("Get an Anthropic key");
    await userEvent.click(within(links).getAllByTestId(TID.externalLink)[0]!);
    expect(screen.getByTestId(TID.linkAddress)).toHaveTextContent("https://console.anthropic.com/settings/keys");
    await userEvent.click(screen.getByTestId(TID.linkOpen));
    await waitFor(() =>
      expect(calls).toContainEqual({ cmd: "open_link", args: { url: "https://console.anthropic.com/settings/keys" } }),
    );

    expect(screen.getByTestId(TID.setupProject)).toHaveTextContent("No folder chosen yet.");
    await userEvent.click(screen.getByTestId(TID.setupPickProject));
    await waitFor(() => expect(screen.getByTestId(TID.setupProject)).toHaveTextContent("/home/me/src/app"));
    const saved = calls.filter((c) => c.cmd === "settings_set").at(-1)?.args.settings as Settings;
    expect(saved.projectDir).toBe("/home/me/src/app");
  });

  it("takes a key on the setup screen itself: to the keychain, its provider made active, then the chat", async () => {
    const calls = boot({ keys: [{ name: "openai", isSet: false }], ollama: false });
    render(<App />);
    await userEvent.selectOptions(await screen.findByTestId(TID.setupKeyProvider), "openai");
    await userEvent.type(screen.getByTestId(TID.setupKeyInput), "sk-test-key{Enter}");
    await waitFor(() => expect(calls).toContainEqual({ cmd: "keys_set", args: { name: "openai", value: "sk-test-key" } }));
    const saved = calls.filter((c) => c.cmd === "settings_set").at(-1)?.args.settings as Settings;
    expect(saved.activeProvider).toBe("openai");
    // The first step is done; the second (the project folder) is next, not skipped.
    expect(await screen.findByTestId(TID.setupModelDone)).toHaveTextContent("OpenAI");
    expect(screen.queryByTestId(TID.setupKeyInput)).toBeNull();
    await waitFor(() => expect(screen.getByTestId(TID.setupPickProject)).toHaveFocus());
    expect(screen.queryByTestId(TID.composerInput)).toBeNull();
    // Never kept in the page.
    expect(document.body.innerHTML).not.toContain("sk-test-key");
    await userEvent.click(screen.getByTestId(TID.setupPickProject));
    await waitFor(() => expect(screen.getByTestId(TID.setupProject)).toHaveTextContent("/home/me/src/app"));
    await waitFor(() => expect(screen.getByTestId(TID.setupStart)).toHaveFocus());
    await userEvent.click(screen.getByTestId(TID.setupStart));
    expect(await screen.findByTestId(TID.composerInput)).toBeInTheDocument();
  });

  it("after the model step, starts without a folder when asked, the folder chosen earlier kept", async () => {
    boot({ ollama: true, settings: { ...SETTINGS, projectDir: "/home/me/src/kept" } });
    render(<App />);
    await userEvent.click(await screen.findByTestId(TID.setupUseOllama));
    expect(await screen.findByTestId(TID.setupModelDone)).toHaveTextContent("Ollama");
    expect(screen.getByTestId(TID.setupProject)).toHaveTextContent("/home/me/src/kept");
    // Both steps are done: Start is next.
    await waitFor(() => expect(screen.getByTestId(TID.setupStart)).toHaveFocus());
    expect(screen.getByTestId(TID.setupStart)).toHaveTextContent(/^Start$/);
    await userEvent.keyboard("{Enter}");
    expect(await screen.findByTestId(TID.composerInput)).toBeInTheDocument();
  });

  it("says in words why a provider chosen earlier cannot answer", async () => {
    boot({ ollama: false, settings: { ...SETTINGS, activeProvider: "ollama" } });
    render(<App />);
    const why = await screen.findByTestId(TID.setupWhy);
    expect(why).toHaveTextContent("Warden is set to use Ollama, which cannot answer yet.");
    expect(why).toHaveTextContent("is it running?");
  });

  it("says in the top bar that file tools are off while no project folder is chosen", async () => {
    boot({});
    render(<App />);
    await userEvent.click(await screen.findByTestId(TID.setupSkip));
    const none = screen.getByTestId(TID.noProject);
    expect(none).toHaveTextContent("No project folder: file tools and commands are off");
    await userEvent.click(none);
    expect(screen.getByTestId(TID.settingsPanel)).toBeInTheDocument();
  });

  it("treats a failing Ollama probe as unreachable", async () => {
    boot({ ollama: "fails" });
    render(<App />);
    await waitFor(() => expect(screen.getByTestId(TID.setupScreen)).toBeInTheDocument());
    expect(screen.queryByTestId(TID.setupUseOllama)).toBeNull();
  });

  it("offers a reachable local Ollama as the default and saves it", async () => {
    const calls = boot({ ollama: true });
    render(<App />);
    await userEvent.click(await screen.findByTestId(TID.setupUseOllama));
    const set = calls.find((c) => c.cmd === "settings_set");
    expect((set?.args.settings as Settings).activeProvider).toBe("ollama");
    await userEvent.click(await screen.findByTestId(TID.setupStart));
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toBeInTheDocument());
  });

  it("goes straight to the chat when the active provider has a key", async () => {
    boot({ keys: [{ name: "anthropic", isSet: true }] });
    render(<App />);
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toBeInTheDocument());
    expect(screen.queryByTestId(TID.setupScreen)).toBeNull();
  });

  it("goes straight to the chat when Ollama is active and reachable", async () => {
    boot({ ollama: true, settings: { ...SETTINGS, activeProvider: "ollama" } });
    render(<App />);
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toBeInTheDocument());
  });

  it("opens Settings with Ctrl+, and lists the shortcuts with Ctrl+/, which Esc closes", async () => {
    boot({ keys: [{ name: "anthropic", isSet: true }] });
    render(<App />);
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());
    await userEvent.keyboard("{Control>}/{/Control}");
    const help = screen.getByTestId(TID.shortcutsHelp);
    expect(help).toHaveTextContent("Ctrl+N");
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByTestId(TID.shortcutsHelp)).toBeNull();
    await userEvent.keyboard("{Control>},{/Control}");
    expect(await screen.findByTestId(TID.settingsPanel)).toBeInTheDocument();
    await userEvent.keyboard("{Control>},{/Control}");
    expect(screen.queryByTestId(TID.settingsPanel)).toBeNull();
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());
  });

  it("shows which model answers beside the composer, and switching it saves the settings", async () => {
    const calls = boot({ keys: [{ name: "anthropic", isSet: true }] });
    render(<App />);
    const menu = await screen.findByTestId(TID.modelSwitch);
    expect(menu).toHaveValue("");
    expect(menu).toHaveDisplayValue("claude-sonnet-4-5 (default)");
    await userEvent.click(menu);
    await waitFor(() => expect(calls).toContainEqual({ cmd: "provider_models", args: { provider: "anthropic" } }));
    await userEvent.selectOptions(menu, "claude-test");
    await waitFor(() => expect(calls.some((c) => c.cmd === "settings_set")).toBe(true));
    const saved = calls.filter((c) => c.cmd === "settings_set").at(-1)?.args.settings as Settings;
    expect(saved.providers?.anthropic?.model).toBe("claude-test");
    expect(menu).toHaveDisplayValue("Claude Test");
    // Settings opens with the model chosen here, so it cannot save the old one back.
    await userEvent.click(screen.getByTestId(TID.settingsOpen));
    expect(await screen.findByTestId(TID.modelPicker.anthropic)).toHaveValue("claude-test");
  });

  it("can skip setup, and opens and closes settings from the top bar", async () => {
    boot({});
    render(<App />);
    await userEvent.click(await screen.findByTestId(TID.setupSkip));
    await userEvent.click(screen.getByTestId(TID.settingsOpen));
    expect(await screen.findByTestId(TID.settingsPanel)).toBeInTheDocument();
    await userEvent.click(screen.getByTestId(TID.settingsOpen));
    expect(screen.queryByTestId(TID.settingsPanel)).toBeNull();
  });

  it("opens Settings on what the engine saved since start, so a change there keeps it", async () => {
    const calls = boot({ keys: [{ name: "anthropic", isSet: true }] });
    render(<App />);
    await screen.findByTestId(TID.composerInput);
    // Meanwhile the engine saved an answer of the user's: "Always for this project" about a host.
    const rule = { effect: "allow" as const, tool: "network", pattern: "registry.test:443" };
    engineSettings = { ...engineSettings, permissionRules: [rule] };
    await userEvent.click(screen.getByTestId(TID.settingsOpen));
    await userEvent.click(await screen.findByTestId(TID.theme.dark));
    await waitFor(() => expect(calls.some((c) => c.cmd === "settings_set")).toBe(true));
    const saved = calls.filter((c) => c.cmd === "settings_set").at(-1)?.args.settings as Settings;
    expect(saved.theme).toBe("dark");
    expect(saved.permissionRules).toEqual([rule]);
  });
});

const summary = (id: string, title: string): ConversationSummary => ({ id, title, projectRoot: null, updatedAtMs: 1, messageCount: 2 });
const activeItem = () => screen.getAllByTestId(TID.conversationItem).find((i) => i.getAttribute("aria-current") === "page");

describe("App with Settings over the chat", () => {
  it("keeps a new conversation and its draft while Settings is open and closed", async () => {
    boot({ keys: [{ name: "anthropic", isSet: true }], saved: [summary("conv-old", "Older talk")] });
    render(<App />);
    await waitFor(() => expect(activeItem()).toHaveTextContent("Older talk"));
    await userEvent.click(screen.getByTestId(TID.conversationNew));
    await waitFor(() => expect(activeItem()).toHaveTextContent("New conversation"));
    await userEvent.type(screen.getByTestId(TID.composerInput), "half a thought");
    await userEvent.click(screen.getByTestId(TID.settingsOpen));
    await userEvent.click(await screen.findByTestId(TID.settingsClose));
    // The same conversation, the draft still in its field.
    expect(await screen.findByTestId(TID.composerInput)).toHaveValue("half a thought");
    expect(activeItem()).toHaveTextContent("New conversation");
    expect(screen.getAllByTestId(TID.conversationItem)).toHaveLength(2);
  });

  it("closes Settings with Ctrl+N and starts a new conversation there", async () => {
    boot({ keys: [{ name: "anthropic", isSet: true }], saved: [summary("conv-old", "Older talk")] });
    render(<App />);
    await waitFor(() => expect(activeItem()).toHaveTextContent("Older talk"));
    await userEvent.keyboard("{Control>},{/Control}");
    expect(await screen.findByTestId(TID.settingsPanel)).toBeInTheDocument();
    await userEvent.keyboard("{Control>}n{/Control}");
    await waitFor(() => expect(screen.queryByTestId(TID.settingsPanel)).toBeNull());
    await waitFor(() => expect(activeItem()).toHaveTextContent("New conversation"));
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());
  });

  it("closes Settings with Esc when the focus fell to the page (Ctrl+, or a button that disabled itself)", async () => {
    boot({ keys: [{ name: "anthropic", isSet: true }] });
    render(<App />);
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());
    await userEvent.keyboard("{Control>},{/Control}");
    await screen.findByTestId(TID.settingsPanel);
    // Where a control that had the focus went away or disabled itself.
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    await userEvent.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByTestId(TID.settingsPanel)).toBeNull());
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());
  });

  it("Open settings on a refused key's error goes to the key field", async () => {
    boot({
      keys: [{ name: "anthropic", isSet: true }],
      sendFails: { code: "AUTH_FAILED", message: "The Anthropic key was refused." },
    });
    render(<App />);
    await userEvent.type(await screen.findByTestId(TID.composerInput), "hello{Enter}");
    await userEvent.click(within(await screen.findByTestId(TID.chatError)).getByTestId(TID.chatErrorAction));
    await screen.findByTestId(TID.settingsPanel);
    await waitFor(() => expect(screen.getByTestId(TID.keyInput.anthropic)).toHaveFocus());
  });
});
