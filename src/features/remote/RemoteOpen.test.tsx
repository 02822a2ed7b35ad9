// "Open a remote project…": the target checked in words before anything connects, the session
// opened there shown as the active conversation with its machine in the top bar, a failure said in
// the dialog, and the banner while its link is down.
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { StrictMode } from "react";
import { describe, expect, it } from "vitest";
import { App } from "../../app/App";
import type { ConversationSummary, KnownRemote, RemoteLink, RemoteOpened } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { OPENED, SETTINGS } from "../../test/remoteFixtures";


const SAVED: ConversationSummary = {
  id: "conv-local",
  title: "A local one",
  projectRoot: "/home/me/local-project",
  updatedAtMs: 1_790_000_000_000,
  messageCount: 2,
};


/** The conversations saved in OPENED's project there: OPENED's own and an earlier one. */
const SAVED_THERE: ConversationSummary[] = [
  { id: OPENED.conversationId, title: "run the tests", projectRoot: "/srv/app", updatedAtMs: 1_790_000_100_000, messageCount: 0 },
  { id: "conv-earlier", title: "Earlier work there", projectRoot: "/srv/app", updatedAtMs: 1_790_000_000_000, messageCount: 4 },
];

type Call = { cmd: string; args: Record<string, unknown> };

/** The local project's instructions: what the top bar names while a local conversation is shown. */
const LOCAL_AGENTS_MD = { path: "/home/me/local-project/AGENTS.md", relativePath: "AGENTS.md", bytes: 120, truncated: false };

const COPY_PLAN = "copy Warden 0.1.0 (warden-box, warden-engine, warden, 41.2 MB) to builder@build-box:~/.local/share/warden/bin/";

/** A remote project's instruction files, read there (`remote_instructions_in_use`). */
const REMOTE_AGENTS_MD = { path: "/srv/app/AGENTS.md", relativePath: "AGENTS.md", bytes: 300, truncated: false };
const REMOTE_SUB_AGENTS_MD = { path: "/srv/app/crates/AGENTS.md", relativePath: "crates/AGENTS.md", bytes: 90, truncated: false };
let REMOTE_INSTRUCTIONS: { files: unknown[]; global: boolean } = { files: [], global: false };

/** What `chat_history` gives of a conversation (a remote one taken up again: read there). */
const REMOTE_HISTORY: Record<string, unknown[]> = {};

/**
 * The window with one saved local conversation; `remoteOpen` answers `remote_open`, `known` is
 * what `remote_known` remembers from before.
 */
function boot(remoteOpen: () => unknown = () => OPENED, known: KnownRemote[] = []) {
  const calls: Call[] = [];
  mockIPC(
    (cmd, args) => {
      calls.push({ cmd, args: (args ?? {}) as Record<string, unknown> });
      switch (cmd) {
        case "settings_get":
          return SETTINGS;
        case "keys_status":
          return [{ name: "anthropic", isSet: true }];
        case "provider_readiness":
          return { ready: true, reason: null };
        case "chat_list":
          return { conversations: [SAVED], nextOffset: null };
        case "chat_history":
          return REMOTE_HISTORY[(args as { conversationId?: string } | undefined)?.conversationId ?? ""] ?? [];
        case "provider_models":
          return [];
        case "remote_known":
          return known;
        case "remote_open":
          return remoteOpen();
        case "remote_instructions_in_use":
          return REMOTE_INSTRUCTIONS;
        case "remote_conversations":
          return SAVED_THERE;
        case "remote_install_plan":
          return COPY_PLAN;
        case "instructions_in_use":
          return { files: [LOCAL_AGENTS_MD], global: false };
        default:
          return null;
      }
    },
    { shouldMockEvents: true },
  );
  return calls;
}

const remoteCalls = (calls: Call[]) => calls.filter((c) => c.cmd === "remote_open");
const shownConversation = () =>
  screen.getAllByTestId(TID.conversationItem).find((i) => i.getAttribute("aria-current") === "page");

/**
 * The window (as main.tsx mounts it: effects run twice), the local conversation shown (chosen by
 * the user unless `chooseLocal` is false), the dialog open.
 */
async function openDialog(chooseLocal = true) {
  render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  await screen.findByText("A local one");
  if (chooseLocal) await userEvent.click(screen.getByText("A local one"));
  await userEvent.click(screen.getByTestId(TID.remoteOpen));
  return screen.getByTestId(TID.remoteDialog);
}

async function connect(target: string, transport = "") {
  await userEvent.type(screen.getByTestId(TID.remoteTarget), target);
  if (transport) await userEvent.type(screen.getByTestId(TID.remoteTransport), transport);
  await userEvent.click(screen.getByTestId(TID.remoteConnect));
}

/** Opens OPENED through the dialog and waits for it to be shown. */
async function openRemote() {
  await openDialog();
  await connect(OPENED.target);
  await waitFor(() => expect(shownConversation()).toHaveAttribute("data-conversation-id", OPENED.conversationId));
}

const link = (state: string, detail: string | null = null, attempt: number | null = null): RemoteLink => ({
  conversationId: OPENED.conversationId,
  state,
  detail,
  attempt,
});

/** A `remote:link` event, as the shell sends it. */
const tell = (payload: RemoteLink) => act(() => emit("remote:link", payload));

describe("the remote project dialog", () => {
  it("refuses a target that is not host:/path in words, without connecting", async () => {
    const calls = boot();
    const dialog = await openDialog();
    expect(screen.getByTestId(TID.remoteTarget)).toHaveFocus();
    expect(dialog).toHaveTextContent("docker exec -i");
    expect(dialog).toHaveTextContent("kubectl exec -i");

    await connect("build-box");
    expect(screen.getByTestId(TID.remoteError)).toHaveTextContent("“build-box” names no folder: type host:/path");
    expect(screen.getByRole("alert")).toBe(screen.getByTestId(TID.remoteError));

    await userEvent.clear(screen.getByTestId(TID.remoteTarget));
    await connect("build-box:srv/app");
    expect(screen.getByTestId(TID.remoteError)).toHaveTextContent("The path must be absolute, starting with “/” (“srv/app” is not)");

    await userEvent.clear(screen.getByTestId(TID.remoteTarget));
    await connect(":/srv/app{Enter}");
    expect(screen.getByTestId(TID.remoteError)).toHaveTextContent("The host is missing before the colon");

    expect(remoteCalls(calls)).toEqual([]);
    expect(screen.getByTestId(TID.remoteDialog)).toBeInTheDocument();
  });

  it("says where it connects while it does, then shows the remote conversation and its machine in the top bar", async () => {
    let answer: (opened: RemoteOpened) => void = () => {};
    const calls = boot(() => new Promise<RemoteOpened>((resolve) => (answer = resolve)));
    const dialog = await openDialog();
    await connect(` ${OPENED.target} `, "docker exec -i box warden serve --stdio");

    expect(await screen.findByTestId(TID.remoteConnecting)).toHaveTextContent("Connecting to builder@build-box…");
    expect(screen.getByTestId(TID.remoteConnect)).toBeDisabled();
    expect(within(dialog).getByRole("button", { name: "Close" })).toBeEnabled();
    expect(remoteCalls(calls)).toEqual([
      { cmd: "remote_open", args: { target: OPENED.target, transport: "docker exec -i box warden serve --stdio", resume: null, remoteEnvKeys: false } },
    ]);

    await act(async () => answer(OPENED));
    await waitFor(() => expect(screen.queryByTestId(TID.remoteDialog)).toBeNull());
    await waitFor(() => expect(shownConversation()).toHaveAttribute("data-conversation-id", OPENED.conversationId));
    expect(shownConversation()).toHaveTextContent(OPENED.target);
    // Saved on the other machine: neither renamed nor deleted from this one.
    expect(screen.queryByTestId(TID.conversationDelete)).toBeNull();
    expect(screen.getByTestId(TID.remoteProject)).toHaveTextContent(OPENED.target);
    expect(screen.getByTestId(TID.remoteMachine)).toHaveTextContent("as builder · box: bubblewrap");
    expect(screen.queryByText(SETTINGS.projectDir!)).toBeNull();

    // It is the conversation messages go to.
    await userEvent.type(screen.getByTestId(TID.composerInput), "run the tests{Enter}");
    await waitFor(() =>
      expect(calls).toContainEqual({
        cmd: "chat_send",
        args: { conversationId: OPENED.conversationId, content: "run the tests", images: null, plan: null, approvedPlan: null },
      }),
    );

    // A local conversation shows the local folder again.
    await userEvent.click(screen.getByText("A local one"));
    expect(screen.queryByTestId(TID.remoteProject)).toBeNull();
    expect(screen.getByText(SETTINGS.projectDir!)).toBeInTheDocument();
  });

  it("uses that machine's own keys when asked, says so in the top bar, and asks the same when linking again", async () => {
    const theirs = { ...OPENED, conversationId: "conv-their-keys", remoteEnvKeys: true };
    const calls = boot(() => theirs);
    await openDialog();
    const own = screen.getByTestId(TID.remoteEnvKeys);
    expect(own).not.toBeChecked();
    await userEvent.click(own);
    await connect(OPENED.target);
    await waitFor(() => expect(shownConversation()).toHaveAttribute("data-conversation-id", theirs.conversationId));
    expect(remoteCalls(calls)).toEqual([
      { cmd: "remote_open", args: { target: OPENED.target, transport: null, resume: null, remoteEnvKeys: true } },
    ]);
    expect(screen.getByTestId(TID.remoteMachine)).toHaveTextContent("as builder · box: bubblewrap · keys: that machine's");

    // Lost: opened again from the banner, the dialog keeps the choice.
    await tell({ conversationId: theirs.conversationId, state: "lost", detail: "the engine there restarted", attempt: null });
    await userEvent.click(await screen.findByTestId(TID.remoteReopen));
    expect(screen.getByTestId(TID.remoteEnvKeys)).toBeChecked();
  });

  it("says why connecting failed, in the dialog, and lets the user try again", async () => {
    let fail = true;
    const calls = boot(() => {
      if (fail) throw { code: "INTERNAL", message: "Host key verification failed." };
      return OPENED;
    });
    await openDialog();
    await connect(OPENED.target);
    expect(await screen.findByTestId(TID.remoteError)).toHaveTextContent("Host key verification failed.");
    expect(screen.getByTestId(TID.remoteError)).toHaveAttribute("role", "alert");
    expect(screen.queryByTestId(TID.remoteConnecting)).toBeNull();
    expect(screen.queryByTestId(TID.remoteProject)).toBeNull();
    expect(shownConversation()).toHaveAttribute("data-conversation-id", SAVED.id);
    expect(remoteCalls(calls)).toEqual([{ cmd: "remote_open", args: { target: OPENED.target, transport: null, resume: null, remoteEnvKeys: false } }]);

    fail = false;
    await userEvent.click(screen.getByTestId(TID.remoteConnect));
    await waitFor(() => expect(shownConversation()).toHaveAttribute("data-conversation-id", OPENED.conversationId));
  });

  it("stops waiting when closed while connecting: a session that still opens is listed, not shown", async () => {
    let answer: (opened: RemoteOpened) => void = () => {};
    boot(() => new Promise<RemoteOpened>((resolve) => (answer = resolve)));
    // The local conversation is shown as the first of the list, not chosen.
    const dialog = await openDialog(false);
    await connect(OPENED.target);
    await screen.findByTestId(TID.remoteConnecting);
    await userEvent.click(within(dialog).getByRole("button", { name: "Close" }));
    expect(screen.queryByTestId(TID.remoteDialog)).toBeNull();

    await act(async () => answer(OPENED));
    await waitFor(() => expect(screen.getByText(OPENED.target)).toBeInTheDocument());
    expect(shownConversation()).toHaveAttribute("data-conversation-id", SAVED.id);
    expect(screen.queryByTestId(TID.remoteProject)).toBeNull();
  });
});

describe("the remote link banner", () => {
  it("says the link dropped and which attempt reconnects it, and goes when it is back up", async () => {
    boot();
    await openRemote();
    expect(screen.queryByTestId(TID.remoteLinkBanner)).toBeNull();

    await tell(link("reconnecting", "connection reset", 2));
    const banner = await screen.findByTestId(TID.remoteLinkBanner);
    expect(banner).toHaveAttribute("role", "status");
    expect(banner).toHaveTextContent("The link to builder@build-box dropped — reconnecting (attempt 2)…");

    await tell(link("reconnecting", "connection reset", 3));
    await waitFor(() => expect(screen.getByTestId(TID.remoteLinkBanner)).toHaveTextContent("(attempt 3)…"));

    await tell(link("up"));
    await waitFor(() => expect(screen.queryByTestId(TID.remoteLinkBanner)).toBeNull());
  });

  it("says the link is lost and why, offers to open the project again, and is not shown over a local conversation", async () => {
    boot();
    await openRemote();
    await tell({ ...link("lost", "ssh exited with status 255"), conversationId: "another-remote" });
    expect(screen.queryByTestId(TID.remoteLinkBanner)).toBeNull();

    await tell(link("lost", "ssh exited with status 255"));
    const banner = await screen.findByTestId(TID.remoteLinkBanner);
    expect(banner).toHaveTextContent("The link to builder@build-box is lost: ssh exited with status 255");
    expect(banner).toHaveTextContent("open the project again");

    await userEvent.click(screen.getByText("A local one"));
    expect(screen.queryByTestId(TID.remoteLinkBanner)).toBeNull();
    await userEvent.click(screen.getByText(OPENED.target));
    await userEvent.click(await screen.findByTestId(TID.remoteReopen));
    expect(screen.getByTestId(TID.remoteTarget)).toHaveValue(OPENED.target);
  });
});

const HOST_KEY_PROMPT =
  "The authenticity of host '[build-box]:22' can't be established.\nED25519 key fingerprint is SHA256:q4A8cbCPxMrCWmk7QDY2.\n" +
  "Are you sure you want to continue connecting (yes/no/[fingerprint])? ";

/** A `remote:askpass` event, as the shell sends it. */
const ask = (id: string, kind: string, prompt: string, open = true) =>
  act(() => emit("remote:askpass", { id, host: "build-box", prompt, kind, open }));

const answers = (calls: Call[]) => calls.filter((c) => c.cmd === "remote_askpass_answer").map((c) => c.args);

describe("what ssh asks while it connects", () => {
  it("shows a host key's fingerprint and passes on only an explicit acceptance", async () => {
    const calls = boot(() => new Promise<RemoteOpened>(() => {}));
    await openDialog();
    await connect(OPENED.target);
    await ask("q1", "hostKey", HOST_KEY_PROMPT);
    const question = await screen.findByTestId(TID.sshQuestion);
    expect(screen.getByTestId(TID.sshQuestionPrompt)).toHaveTextContent("SHA256:q4A8cbCPxMrCWmk7QDY2");
    expect(question).toHaveTextContent("While connecting to build-box");
    // Nothing is answered until the user acts; Enter on the focused Close refuses.
    expect(within(question).getByRole("button", { name: "Close" })).toHaveFocus();
    expect(answers(calls)).toEqual([]);
    await userEvent.click(screen.getByTestId(TID.sshQuestionAccept));
    expect(answers(calls)).toEqual([{ id: "q1", answer: "yes" }]);
    expect(screen.queryByTestId(TID.sshQuestion)).not.toBeInTheDocument();
    // The remote dialog still says it connects under it.
    expect(screen.getByTestId(TID.remoteConnecting)).toHaveTextContent("Connecting to builder@build-box");
  });

  it("passes a passphrase typed hidden, refuses on Escape, and drops a question withdrawn", async () => {
    const calls = boot(() => new Promise<RemoteOpened>(() => {}));
    await openDialog();
    await connect(OPENED.target);
    await ask("q2", "secret", "Enter passphrase for key '/home/me/.ssh/id_ed25519': ");
    const field = await screen.findByTestId(TID.sshQuestionSecret);
    expect(field).toHaveAttribute("type", "password");
    expect(field).toHaveFocus();
    await userEvent.type(field, "correct horse{Enter}");
    expect(answers(calls)).toEqual([{ id: "q2", answer: "correct horse" }]);

    await ask("q3", "hostKey", HOST_KEY_PROMPT);
    await screen.findByTestId(TID.sshQuestion);
    await userEvent.keyboard("{Escape}");
    expect(answers(calls).at(-1)).toEqual({ id: "q3", answer: null });

    await ask("q4", "confirm", "Allow use of key? (yes/no)");
    await screen.findByTestId(TID.sshQuestion);
    await ask("q4", "confirm", "Allow use of key? (yes/no)", false);
    expect(screen.queryByTestId(TID.sshQuestion)).not.toBeInTheDocument();
    expect(answers(calls)).toHaveLength(2);
  });
});

describe("a machine without this Warden", () => {
  it("offers to copy it over ssh, says what the copy does first, and connects once it is there", async () => {
    let tries = 0;
    const calls = boot(() => {
      tries += 1;
      if (tries === 1) throw { code: "NO_REMOTE_ENGINE", message: "The link closed (exit status 127): Is Warden installed there?" };
      return OPENED;
    });
    await openDialog();
    await connect(OPENED.target);
    expect(await screen.findByTestId(TID.remoteError)).toHaveTextContent("Is Warden installed there?");
    const offer = screen.getByTestId(TID.remoteCopyOffer);
    expect(offer).toHaveTextContent("builder@build-box");
    // Nothing is copied before the plan is read and confirmed.
    await userEvent.click(within(offer).getByTestId(TID.remoteCopyPlan));
    expect(await within(offer).findByText(/It will copy Warden 0\.1\.0/)).toHaveTextContent("41.2 MB");
    expect(calls.filter((c) => c.cmd === "remote_install")).toEqual([]);
    await userEvent.click(within(offer).getByTestId(TID.remoteCopyConfirm));
    await waitFor(() => expect(shownConversation()).toHaveAttribute("data-conversation-id", OPENED.conversationId));
    expect(calls.filter((c) => c.cmd.startsWith("remote_install")).map((c) => [c.cmd, c.args.target])).toEqual([
      ["remote_install_plan", OPENED.target],
      ["remote_install", OPENED.target],
    ]);
    expect(remoteCalls(calls)).toHaveLength(2);
  });

  it("offers nothing when the link failed for another reason", async () => {
    boot(() => {
      throw { code: "INTERNAL", message: "Host key verification failed." };
    });
    await openDialog();
    await connect(OPENED.target);
    expect(await screen.findByTestId(TID.remoteError)).toHaveTextContent("Host key verification failed.");
    expect(screen.queryByTestId(TID.remoteCopyOffer)).not.toBeInTheDocument();
  });
});

describe("what describes the project", () => {
  it("over a remote project's conversation is that project's, read there, and the local one's is back with a local one", async () => {
    const calls = boot();
    await openDialog();
    const local = await screen.findByTestId(TID.instructionsIndicator);
    expect(local).toHaveTextContent("Using AGENTS.md");
    REMOTE_INSTRUCTIONS = { files: [REMOTE_AGENTS_MD, REMOTE_SUB_AGENTS_MD], global: false };
    await connect(OPENED.target);
    await waitFor(() => expect(shownConversation()).toHaveAttribute("data-conversation-id", OPENED.conversationId));
    await waitFor(() => expect(screen.getByTestId(TID.instructionsIndicator)).toHaveTextContent("Using AGENTS.md + crates/AGENTS.md"));
    expect(calls).toContainEqual({ cmd: "remote_instructions_in_use", args: { conversationId: OPENED.conversationId } });
    await userEvent.click(screen.getByTestId(TID.instructionsIndicator));
    const listed = screen.getByTestId(TID.instructionsInUse);
    expect(listed).toHaveTextContent("on builder@build-box");
    // Named, not opened from here: the file is on the other machine.
    expect(within(listed).queryByTestId(TID.instructionFileOpen)).toBeNull();
    expect(within(listed).getAllByTestId(TID.instructionFileThere).map((f) => f.getAttribute("data-path"))).toEqual([
      "/srv/app/AGENTS.md",
      "/srv/app/crates/AGENTS.md",
    ]);

    // A remote project without any: nothing is said (not the local project's).
    REMOTE_INSTRUCTIONS = { files: [], global: false };
    await userEvent.click(screen.getByText("A local one"));
    await waitFor(() => expect(screen.getByTestId(TID.instructionsIndicator)).toHaveTextContent("Using AGENTS.md"));
    expect(screen.getByTestId(TID.instructionsIndicator)).not.toHaveTextContent("crates");
  });
});

describe("remote projects opened before this start", () => {
  it("are listed, not linked, and their conversation is taken up again there with what was said", async () => {
    // A conversation of its own: the window's store outlives each test of this file.
    const opened = { ...OPENED, conversationId: "conv-known" };
    const known: KnownRemote = { ...opened, transport: null, openedAtMs: 1_790_000_000_000 };
    REMOTE_HISTORY[opened.conversationId] = [
      { role: "user", content: [{ type: "text", text: "run the tests there" }] },
      { role: "assistant", content: [{ type: "text", text: "They pass on build-box." }] },
    ];
    const calls = boot(() => opened, [known]);
    render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
    const listed = await waitFor(() => {
      const item = screen.getAllByTestId(TID.conversationItem).find((i) => i.textContent?.includes(OPENED.target));
      if (!item) throw new Error("not listed yet");
      return item;
    });
    await userEvent.click(within(listed).getByText(OPENED.target));
    const banner = await screen.findByTestId(TID.remoteLinkBanner);
    expect(banner).toHaveAttribute("data-state", "closed");
    expect(banner).toHaveTextContent("Not linked to builder@build-box since Warden started.");
    expect(remoteCalls(calls)).toEqual([]);

    await userEvent.click(within(banner).getByTestId(TID.remoteResume));
    expect(await screen.findByText("They pass on build-box.")).toBeInTheDocument();
    expect(screen.getByText("run the tests there")).toBeInTheDocument();
    expect(remoteCalls(calls)).toEqual([
      { cmd: "remote_open", args: { target: OPENED.target, transport: null, resume: opened.conversationId, remoteEnvKeys: false } },
    ]);
    expect(screen.queryByTestId(TID.remoteLinkBanner)).not.toBeInTheDocument();
    delete REMOTE_HISTORY[opened.conversationId];
  });
});

describe("the conversations saved in a remote project there", () => {
  it("are listed from the top bar, the one shown marked, and another is taken up there with what was said", async () => {
    const earlier = { ...OPENED, conversationId: "conv-earlier" };
    REMOTE_HISTORY[earlier.conversationId] = [
      { role: "user", content: [{ type: "text", text: "what is in /srv/app?" }] },
      { role: "assistant", content: [{ type: "text", text: "A Rust workspace." }] },
    ];
    let opens = 0;
    const calls = boot(() => (opens++ === 0 ? OPENED : earlier));
    await openRemote();
    await userEvent.click(screen.getByTestId(TID.remoteSavedOpen));
    const dialog = await screen.findByTestId(TID.remoteSaved);
    await waitFor(() => expect(within(dialog).getAllByTestId(TID.remoteSavedItem)).toHaveLength(2));
    // Asked of the project shown (StrictMode runs the effect twice).
    const asked = calls.filter((c) => c.cmd === "remote_conversations").map((c) => c.args);
    expect(new Set(asked.map((a) => a.conversationId))).toEqual(new Set([OPENED.conversationId]));
    const [shown, other] = within(dialog).getAllByTestId(TID.remoteSavedItem);
    expect(shown).toHaveAttribute("data-current", "true");
    expect(shown).toBeDisabled();
    expect(dialog).toHaveTextContent("shown now");
    expect(other).toHaveTextContent("Earlier work there");
    expect(dialog).toHaveTextContent("4 messages");

    await userEvent.click(other!);
    await waitFor(() => expect(screen.queryByTestId(TID.remoteSaved)).toBeNull());
    expect(remoteCalls(calls).at(-1)).toEqual({
      cmd: "remote_open",
      args: { target: OPENED.target, transport: null, resume: earlier.conversationId, remoteEnvKeys: false },
    });
    await waitFor(() => expect(shownConversation()).toHaveAttribute("data-conversation-id", earlier.conversationId));
    expect(await screen.findByText("A Rust workspace.")).toBeInTheDocument();
    delete REMOTE_HISTORY[earlier.conversationId];
  });

  it("says in the dialog why one could not be taken up, and lets the user close it", async () => {
    let opens = 0;
    boot(() => {
      if (opens++ === 0) return OPENED;
      throw { code: "INTERNAL", message: "the link to builder@build-box dropped" };
    });
    await openRemote();
    await userEvent.click(screen.getByTestId(TID.remoteSavedOpen));
    const dialog = await screen.findByTestId(TID.remoteSaved);
    await waitFor(() => expect(within(dialog).getAllByTestId(TID.remoteSavedItem)).toHaveLength(2));
    await userEvent.click(within(dialog).getAllByTestId(TID.remoteSavedItem)[1]!);
    expect(await within(dialog).findByTestId(TID.remoteSavedError)).toHaveTextContent("the link to builder@build-box dropped");
    expect(shownConversation()).toHaveAttribute("data-conversation-id", OPENED.conversationId);
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByTestId(TID.remoteSaved)).toBeNull();
  });
});
