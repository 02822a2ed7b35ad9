// The conversation list over remote projects: a remote conversation renamed there (its host kept
// beside the new title, and the title kept after a restart), and the search box finding the
// conversations of each linked remote project there, opening one there with what was said, and
// saying which project could not be searched.
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { StrictMode } from "react";
import { describe, expect, it } from "vitest";
import { App } from "../../app/App";
import type { ConversationSummary, KnownRemote, RemoteSearchHits } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { OPENED, SETTINGS } from "../../test/remoteFixtures";


const LOCAL: ConversationSummary = { id: "conv-local", title: "A local one", projectRoot: null, updatedAtMs: 1, messageCount: 2 };


const EARLIER = { id: "conv-earlier", title: "Release notes there", projectRoot: "/srv/app", updatedAtMs: 2, messageCount: 2 };

type Call = { cmd: string; args: Record<string, unknown> };

/** The window, its IPC answered: `answers` overrides a command's answer. */
function boot(answers: Record<string, (args: Record<string, unknown>) => unknown> = {}) {
  const calls: Call[] = [];
  const defaults: Record<string, (args: Record<string, unknown>) => unknown> = {
    settings_get: () => SETTINGS,
    keys_status: () => [{ name: "anthropic", isSet: true }],
    provider_readiness: () => ({ ready: true, reason: null }),
    chat_list: () => ({ conversations: [LOCAL], nextOffset: null }),
    chat_history: () => [],
    provider_models: () => [],
    remote_known: () => [],
    remote_open: () => OPENED,
    chat_search: () => [],
    remote_search: () => [],
  };
  mockIPC(
    (cmd, args) => {
      const a = (args ?? {}) as Record<string, unknown>;
      calls.push({ cmd, args: a });
      const answer = answers[cmd] ?? defaults[cmd];
      return answer ? answer(a) : null;
    },
    { shouldMockEvents: true },
  );
  return calls;
}

const item = (id: string) => screen.getAllByTestId(TID.conversationItem).find((i) => i.getAttribute("data-conversation-id") === id);

async function openRemote() {
  render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
  await screen.findByText("A local one");
  await userEvent.click(screen.getByTestId(TID.remoteOpen));
  await userEvent.type(screen.getByTestId(TID.remoteTarget), OPENED.target);
  await userEvent.click(screen.getByTestId(TID.remoteConnect));
  await waitFor(() => expect(item(OPENED.conversationId)).toHaveAttribute("aria-current", "page"));
}

describe("a remote conversation in the list", () => {
  it("is renamed there, and shows its host beside the new title", async () => {
    const calls = boot();
    await openRemote();
    await userEvent.click(screen.getByTestId(TID.conversationRename));
    const field = screen.getByTestId(TID.conversationRenameInput);
    await userEvent.clear(field);
    await userEvent.type(field, "Ship the release{Enter}");
    await waitFor(() => expect(item(OPENED.conversationId)).toHaveTextContent("Ship the release"));
    expect(item(OPENED.conversationId)).toHaveTextContent(OPENED.target);
    expect(calls.filter((c) => c.cmd === "chat_rename").map((c) => c.args)).toEqual([
      { conversationId: OPENED.conversationId, title: "Ship the release" },
    ]);
    // Saved on its machine: never deleted from here.
    expect(screen.queryByTestId(TID.conversationDelete)).toBeNull();
  });

  it("says why it could not be renamed, and keeps its title", async () => {
    boot({
      chat_rename: () => {
        throw { code: "INVALID_INPUT", message: "This remote project is not linked: link it to see the conversations saved there." };
      },
    });
    await openRemote();
    await userEvent.click(screen.getByTestId(TID.conversationRename));
    await userEvent.type(screen.getByTestId(TID.conversationRenameInput), " again{Enter}");
    expect(await screen.findByTestId(TID.conversationError)).toHaveTextContent("not linked");
    expect(item(OPENED.conversationId)).toHaveTextContent(OPENED.target);
  });

  it("is listed after a restart with the title it was given", async () => {
    const known: KnownRemote = { ...OPENED, transport: null, title: "Ship the release", openedAtMs: 1 };
    boot({ remote_known: () => [known] });
    render(<App />);
    await waitFor(() => expect(item(OPENED.conversationId)).toHaveTextContent("Ship the release"));
    expect(item(OPENED.conversationId)).toHaveTextContent(OPENED.target);
  });
});

describe("the list's search over linked remote projects", () => {
  it("finds their conversations there, says which could not be searched, and opens one there", async () => {
    const found: RemoteSearchHits[] = [
      { via: OPENED.conversationId, target: OPENED.target, hits: [{ conversation: EARLIER, snippet: "the release notes" }], error: null },
      { via: "conv-slow", target: "ci:/work", hits: [], error: "It did not answer within 5 s." },
    ];
    let opens = 0;
    const calls = boot({
      chat_search: () => [{ conversation: { ...LOCAL, title: "Local release" }, snippet: null }],
      remote_search: () => found,
      remote_open: () => (opens++ === 0 ? OPENED : { ...OPENED, conversationId: EARLIER.id }),
      chat_history: (a) =>
        a.conversationId === EARLIER.id
          ? [
              { role: "user", content: [{ type: "text", text: "where are the release notes?" }] },
              { role: "assistant", content: [{ type: "text", text: "In docs/RELEASE.md there." }] },
            ]
          : [],
    });
    await openRemote();
    await userEvent.type(screen.getByTestId(TID.conversationSearch), "release");
    const hits = await screen.findAllByTestId(TID.conversationHit);
    expect(hits.map((h) => h.getAttribute("data-conversation-id"))).toEqual([LOCAL.id, EARLIER.id]);
    expect(hits[1]).toHaveTextContent(OPENED.target);
    expect(hits[0]).not.toHaveTextContent(OPENED.target);
    expect(screen.getByTestId(TID.conversationSearchUnsearched)).toHaveTextContent("Not searched: ci:/work (It did not answer within 5 s.)");
    expect(calls.find((c) => c.cmd === "remote_search")?.args).toEqual({ query: "release", limit: 100 });

    await userEvent.click(hits[1]!);
    await waitFor(() => expect(calls.filter((c) => c.cmd === "remote_open").at(-1)?.args).toEqual({
      target: OPENED.target,
      transport: null,
      resume: EARLIER.id,
      remoteEnvKeys: false,
    }));
    expect(await screen.findByText("In docs/RELEASE.md there.")).toBeInTheDocument();
  });
});
