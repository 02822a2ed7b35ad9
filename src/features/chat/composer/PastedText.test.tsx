// A long paste becomes an attached text chip (the field never holds it), and goes with the
// message in a fenced block; a short paste stays field text.
import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectEvents } from "../../../shared/store/bridge";
import { createChatStore, type ChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { renderConversation } from "../../../test/renderConversation";
import { resetDraftsForTests } from "./drafts";
import { PASTE_CHIP_CHARS, resetPastedForTests, withPasted } from "./pastedTexts";

const C = "conv-paste";
let sends: Record<string, unknown>[];
let store: ChatStore;
let stop: () => void;

beforeEach(async () => {
  resetDraftsForTests();
  resetPastedForTests();
  sends = [];
  mockIPC(
    (cmd, args) => {
      if (cmd === "chat_send") sends.push((args ?? {}) as Record<string, unknown>);
      return null;
    },
    { shouldMockEvents: true },
  );
  store = createChatStore();
  stop = await connectEvents(store, (flush) => flush());
});
afterEach(() => stop());

/** A paste of plain text, as the clipboard hands copied text; whether the page kept the default. */
function pasteText(text: string): boolean {
  return fireEvent.paste(screen.getByTestId(TID.composerInput), {
    clipboardData: { files: [], types: ["text/plain"], items: [], getData: (type: string) => (type === "text/plain" ? text : "") },
  });
}

/** 200 KB of a log, 4,000 lines. */
const LOG = Array.from({ length: 4000 }, (_, i) => `line ${String(i).padStart(4, "0")}: ${"x".repeat(40)}`).join("\n");

describe("a long paste", () => {
  it("becomes a chip with its size, not field text, and goes with the message in a fenced block", async () => {
    renderConversation(store, { conversationId: C });
    expect(LOG.length).toBeGreaterThan(PASTE_CHIP_CHARS);
    const keptDefault = pasteText(LOG);
    expect(keptDefault).toBe(false);
    const chip = await screen.findByTestId(TID.composerPastedItem);
    expect(chip).toHaveTextContent("4,000 lines · 203 KB");
    expect(screen.getByTestId(TID.composerInput)).toHaveValue("");
    expect(screen.getByTestId(TID.send)).toBeEnabled();

    await userEvent.type(screen.getByTestId(TID.composerInput), "Why does this fail?{Enter}");
    expect(sends).toHaveLength(1);
    expect(sends[0]!.content).toBe(withPasted("Why does this fail?", [{ id: "x", text: LOG }]));
    expect(String(sends[0]!.content)).toMatch(/^Pasted text \(4,000 lines · 203 KB\):\n```\nline 0000/);
    expect(String(sends[0]!.content).endsWith("```\n\nWhy does this fail?")).toBe(true);
    expect(screen.queryByTestId(TID.composerPasted)).toBeNull();
  });

  it("can be removed, and a short paste stays field text", async () => {
    renderConversation(store, { conversationId: C });
    pasteText(LOG);
    const chip = await screen.findByTestId(TID.composerPastedItem);
    await userEvent.click(within(chip).getByRole("button", { name: /Remove pasted text/ }));
    expect(screen.queryByTestId(TID.composerPasted)).toBeNull();
    expect(screen.getByTestId(TID.composerInput)).toHaveFocus();

    expect(pasteText("a short line")).toBe(true);
    expect(screen.queryByTestId(TID.composerPasted)).toBeNull();
  });

  it("a text with backticks in it cannot close its fence", () => {
    const sent = withPasted("", [{ id: "x", text: "before\n```\nafter" }]);
    expect(sent).toContain("````\nbefore\n```\nafter\n````");
  });
});
