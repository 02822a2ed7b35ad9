// A conversation reopened from the store shows under each message when it was written, and under
// each answer the model that wrote it (chat_message_stamps), as the live conversation did.
import { render, screen, within } from "@testing-library/react";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { HistoryMessage, MessageStamp } from "../../../shared/ipc";
import { ChatStoreProvider, createChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { ChatScreen } from "../ChatScreen";
import { shortTime } from "./MessageView";

const HISTORY: HistoryMessage[] = [
  { role: "user", content: [{ type: "text", text: "What is in a.txt?" }] },
  { role: "assistant", content: [{ type: "text", text: "It says alpha." }] },
];
const ASKED = new Date(2026, 10, 20, 9, 5).getTime();
const ANSWERED = new Date(2026, 10, 20, 9, 6).getTime();

function open(stamps: MessageStamp[] | "fails") {
  localStorage.clear();
  mockIPC((cmd) => {
    switch (cmd) {
      case "chat_list":
        return { conversations: [{ id: "conv-old", title: "a.txt", projectRoot: null, updatedAtMs: ANSWERED, messageCount: 2 }], nextOffset: null };
      case "chat_history":
        return HISTORY;
      case "chat_message_stamps":
        if (stamps === "fails") throw { code: "INTERNAL", message: "disk error" };
        return stamps;
      case "checkpoint_list":
      case "tools_catalog":
        return [];
      default:
        return null;
    }
  });
  render(
    <ChatStoreProvider store={createChatStore()}>
      <ChatScreen onOpenSettings={() => {}} />
    </ChatStoreProvider>,
  );
}

const metaOf = async (text: string) => {
  const message = (await screen.findByText(text)).closest(`[data-testid="${TID.message}"]`) as HTMLElement;
  return within(message).getByTestId(TID.messageMeta);
};

describe("a reopened conversation's messages", () => {
  beforeEach(() => localStorage.clear());

  it("show when each was written and which model answered", async () => {
    open([
      { atMs: ASKED, model: null },
      { atMs: ANSWERED, model: "claude-sonnet-4-5" },
    ]);
    const question = await metaOf("What is in a.txt?");
    expect(question.querySelector("time")).toHaveAttribute("dateTime", new Date(ASKED).toISOString());
    expect(question).not.toHaveTextContent("claude");
    const answer = await metaOf("It says alpha.");
    expect(answer.querySelector("time")).toHaveAttribute("dateTime", new Date(ANSWERED).toISOString());
    expect(answer).toHaveTextContent("claude-sonnet-4-5");
  });

  it("bring back the context gauge from what each answer cost", async () => {
    open([
      { atMs: ASKED, model: null },
      { atMs: ANSWERED, model: "claude-sonnet-4-5", usage: { inputTokens: 5200, outputTokens: 300 } },
    ]);
    await metaOf("It says alpha.");
    expect(await screen.findByTestId(TID.contextGauge)).toHaveAttribute("data-used", "5500");
    expect(screen.queryByTestId(TID.usageNotReported)).toBeNull();
  });

  it("still open, without times, when the stamps cannot be read", async () => {
    open("fails");
    const answer = await metaOf("It says alpha.");
    expect(answer.querySelector("time")).toBeNull();
  });
});

describe("shortTime", () => {
  it("gives the time alone for today and the day with it for another day", () => {
    const now = new Date(2026, 10, 25, 15, 0);
    expect(shortTime(new Date(2026, 10, 25, 9, 5), now)).not.toMatch(/Nov/);
    expect(shortTime(new Date(2026, 10, 20, 9, 5), now)).toMatch(/20/);
    expect(shortTime(new Date(2025, 10, 20, 9, 5), now)).toMatch(/2025/);
  });
});
