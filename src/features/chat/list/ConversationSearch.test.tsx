// The conversation list's search: the real ChatScreen, list and results; only the IPC answered.
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { ConversationHit, ConversationSummary, HistoryMessage } from "../../../shared/ipc";
import { ChatStoreProvider, createChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { ChatScreen } from "../ChatScreen";
import { resetDraftsForTests } from "../composer/drafts";

function summary(id: string, title: string): ConversationSummary {
  return { id, title, projectRoot: null, updatedAtMs: 1, messageCount: 2 };
}

const hit = (id: string, title: string, snippet: string | null = null): ConversationHit => ({
  conversation: summary(id, title),
  snippet,
});

const OLD_HISTORY: HistoryMessage[] = [
  { role: "user", content: [{ type: "text", text: "Where are the release notes?" }] },
  { role: "assistant", content: [{ type: "text", text: "In docs/RELEASE.md." }] },
];

/**
 * How `chat_search` answers a query: hits at once, a promise the test settles when it likes, or
 * the engine's refusal.
 */
type Answer = ConversationHit[] | Promise<ConversationHit[]> | { fails: string };
let answers: Map<string, Answer>;
let saved: ConversationSummary[];
let calls: { cmd: string; args: Record<string, unknown> }[];

beforeEach(() => {
  localStorage.clear();
  resetDraftsForTests();
  saved = [summary("conv-a", "Fix the README links"), summary("conv-b", "Release checklist")];
  answers = new Map();
  calls = [];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    switch (cmd) {
      case "chat_list":
        return { conversations: saved, nextOffset: null };
      case "chat_search": {
        const answer = answers.get(String(a.query)) ?? [];
        if ("fails" in answer) throw { code: "INTERNAL", message: answer.fails };
        return answer;
      }
      case "chat_history":
        return a.conversationId === "conv-old" ? OLD_HISTORY : [];
      default:
        return null;
    }
  });
});

function renderScreen() {
  return render(
    <ChatStoreProvider store={createChatStore()}>
      <ChatScreen onOpenSettings={() => {}} />
    </ChatStoreProvider>,
  );
}

/** A promise settled from outside, for an answer that comes late. */
function later<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

const field = () => screen.getByRole("combobox", { name: "Search conversations" });
const hitTitles = () => screen.queryAllByTestId(TID.conversationHit).map((h) => h.querySelector(".conversation-title")?.textContent);
const listTitles = () => screen.queryAllByTestId(TID.conversationItem).map((i) => i.textContent);
const searched = () => calls.filter((c) => c.cmd === "chat_search").map((c) => c.args.query);

async function ready() {
  renderScreen();
  await waitFor(() => expect(listTitles()).toEqual(["Fix the README links", "Release checklist"]));
}

describe("Conversation search", () => {
  it("shows what the engine found, the matching line under the title with the words marked", async () => {
    answers.set("readme li", [
      hit("conv-a", "Fix the README links"),
      hit("conv-c", "Docs pass", "…then the readme <b>lists</b> every command, and the links…"),
    ]);
    await ready();
    await userEvent.type(field(), "readme li");

    await waitFor(() => expect(hitTitles()).toEqual(["Fix the README links", "Docs pass"]));
    expect(screen.queryAllByTestId(TID.conversationItem)).toHaveLength(0);
    expect(calls).toContainEqual({ cmd: "chat_search", args: { query: "readme li", limit: 100 } });
    // Typed fast: asked once, for the whole query, not once a key.
    expect(searched()).toEqual(["readme li"]);

    const [titleHit, messageHit] = screen.getAllByTestId(TID.conversationHit);
    expect([...titleHit!.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["README", "li"]);
    expect(within(titleHit!).queryByTestId(TID.conversationSnippet)).toBeNull();

    const snippet = within(messageHit!).getByTestId(TID.conversationSnippet);
    // Shown as text: what looks like markup in a message is not markup here.
    expect(snippet).toHaveTextContent("…then the readme <b>lists</b> every command, and the links…");
    expect(snippet.querySelector("b")).toBeNull();
    expect([...snippet.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["readme", "li", "li"]);
  });

  it("never lets a slow answer to an earlier query replace a later one's", async () => {
    const slow = later<ConversationHit[]>();
    answers.set("rel", slow.promise);
    answers.set("release", [hit("conv-b", "Release checklist")]);
    await ready();

    await userEvent.type(field(), "rel");
    await waitFor(() => expect(searched()).toEqual(["rel"]));
    await userEvent.type(field(), "ease");
    await waitFor(() => expect(hitTitles()).toEqual(["Release checklist"]));

    slow.resolve([hit("conv-x", "Relational algebra"), hit("conv-y", "Relay")]);
    await slow.promise;
    // Give the stale answer every chance to land.
    await new Promise((r) => setTimeout(r, 50));
    expect(hitTitles()).toEqual(["Release checklist"]);
    expect(screen.queryByText("Relational algebra")).toBeNull();
  });

  it("Esc empties the field and the list comes back", async () => {
    answers.set("release", [hit("conv-b", "Release checklist")]);
    await ready();
    await userEvent.type(field(), "release");
    await waitFor(() => expect(hitTitles()).toEqual(["Release checklist"]));

    await userEvent.keyboard("{Escape}");
    expect(field()).toHaveValue("");
    expect(screen.queryAllByTestId(TID.conversationHit)).toHaveLength(0);
    expect(listTitles()).toEqual(["Fix the README links", "Release checklist"]);
  });

  it("says when nothing matches, and shows a failed search as a short error", async () => {
    answers.set("quantum", { fails: "the store is locked" });
    await ready();
    await userEvent.type(field(), "zebra");
    expect(await screen.findByTestId(TID.conversationSearchEmpty)).toHaveTextContent("No conversations match “zebra”");

    await userEvent.clear(field());
    await userEvent.type(field(), "quantum");
    expect(await screen.findByTestId(TID.conversationSearchError)).toHaveTextContent("The search failed: the store is locked");
    // The list is still there to come back to.
    await userEvent.keyboard("{Escape}");
    expect(listTitles()).toEqual(["Fix the README links", "Release checklist"]);
  });

  it("opens a result as a list row opens, also one older than the list goes", async () => {
    answers.set("notes", [hit("conv-b", "Release checklist"), hit("conv-old", "Old notes", "Where are the release notes?")]);
    await ready();
    await userEvent.type(field(), "notes");
    await waitFor(() => expect(hitTitles()).toEqual(["Release checklist", "Old notes"]));

    await userEvent.click(screen.getAllByTestId(TID.conversationHit)[1]!);
    expect(calls).toContainEqual({ cmd: "chat_history", args: { conversationId: "conv-old" } });
    await waitFor(() => expect(screen.getAllByTestId(TID.message)).toHaveLength(2));
    expect(screen.getByText("In docs/RELEASE.md.")).toBeInTheDocument();
    expect(screen.getAllByTestId(TID.conversationHit)[1]).toHaveAttribute("aria-current", "page");

    // Back to the list: the conversation opened is in it, and is the one shown.
    await userEvent.clear(field());
    expect(listTitles()).toEqual(["Fix the README links", "Release checklist", "Old notes"]);
    expect(screen.getAllByTestId(TID.conversationItem)[2]).toHaveAttribute("aria-current", "page");
  });

  it("shows a matching line as plain text, without markdown's marks", async () => {
    answers.set("quokka", [hit("conv-c", "Animals", "## The **quokka** table of `long` words | Name | Kind | | --- | --- | | [quokka](https://example.com) | marsupial |")]);
    await ready();
    await userEvent.type(field(), "quokka");
    const snippet = await screen.findByTestId(TID.conversationSnippet);
    expect(snippet).toHaveTextContent(/^The quokka table of long words Name Kind quokka marsupial$/);
    expect([...snippet.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["quokka", "quokka"]);
  });

  it("is a listbox the field drives: ↓ and ↑ choose a result, Enter opens it, Esc empties the field", async () => {
    answers.set("notes", [hit("conv-b", "Release checklist"), hit("conv-old", "Old notes", "Where are the release notes?")]);
    await ready();
    await userEvent.type(field(), "notes");
    await waitFor(() => expect(hitTitles()).toEqual(["Release checklist", "Old notes"]));
    const listbox = screen.getByRole("listbox", { name: "Search results" });
    expect(field()).toHaveAttribute("aria-controls", listbox.id);
    expect(field()).toHaveAttribute("aria-expanded", "true");
    expect(field()).not.toHaveAttribute("aria-activedescendant");

    await userEvent.keyboard("{ArrowDown}{ArrowDown}{ArrowDown}");
    const options = within(listbox).getAllByRole("option");
    expect(options.map((o) => o.getAttribute("aria-selected"))).toEqual(["false", "true"]);
    expect(field()).toHaveAttribute("aria-activedescendant", options[1]!.id);
    await userEvent.keyboard("{ArrowUp}");
    expect(field()).toHaveAttribute("aria-activedescendant", options[0]!.id);
    await userEvent.keyboard("{ArrowDown}");

    await userEvent.keyboard("{Enter}");
    expect(calls).toContainEqual({ cmd: "chat_history", args: { conversationId: "conv-old" } });
    await waitFor(() => expect(screen.getByText("In docs/RELEASE.md.")).toBeInTheDocument());
    expect(screen.getByRole("option", { name: /Old notes/ })).toHaveAttribute("aria-current", "page");

    // Esc from the field empties it: the list is back, the opened conversation in it.
    await userEvent.click(field());
    await userEvent.keyboard("{Escape}");
    expect(field()).toHaveValue("");
    expect(screen.queryByRole("listbox")).toBeNull();
    expect(listTitles()).toEqual(["Fix the README links", "Release checklist", "Old notes"]);
  });

  it("opens the first result on Enter when none is chosen", async () => {
    answers.set("release", [hit("conv-b", "Release checklist"), hit("conv-a", "Fix the README links", "release links")]);
    await ready();
    await userEvent.type(field(), "release");
    await waitFor(() => expect(hitTitles()).toEqual(["Release checklist", "Fix the README links"]));
    expect(screen.getAllByTestId(TID.conversationHit)[0]).not.toHaveAttribute("aria-current");
    await userEvent.keyboard("{Enter}");
    await waitFor(() => expect(screen.getAllByTestId(TID.conversationHit)[0]).toHaveAttribute("aria-current", "page"));
  });
});
