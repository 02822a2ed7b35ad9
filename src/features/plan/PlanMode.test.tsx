// Plan mode in the composer: the toggle (a pressed button, and the line saying what the mode does)
// and Ctrl+Shift+P send each message with `plan: true` until it is turned off; the mode is each
// conversation's own.
import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { shortcutOf } from "../../shared/keyboard";
import { connectEvents } from "../../shared/store/bridge";
import { createChatStore, type ChatStore } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import { renderConversation } from "../../test/renderConversation";
import { resetDraftsForTests } from "../chat/composer/drafts";
import { planModeOf, resetPlanModeForTests, setPlanMode } from "./planMode";

const C = "conv-plan";
let calls: { cmd: string; args: Record<string, unknown> }[];
let store: ChatStore;
let stop: () => void;

beforeEach(async () => {
  localStorage.clear();
  resetDraftsForTests();
  resetPlanModeForTests();
  calls = [];
  mockIPC(
    (cmd, args) => {
      calls.push({ cmd, args: (args ?? {}) as Record<string, unknown> });
      return cmd === "provider_models" || cmd === "usage_days" ? [] : null;
    },
    { shouldMockEvents: true },
  );
  store = createChatStore();
  stop = await connectEvents(store, (flush) => flush());
});
afterEach(() => stop());

const toggle = () => screen.getByTestId(TID.planToggle);
const field = () => screen.getByTestId(TID.composerInput);
/** What each message was sent with: its text and its plan flags. */
const sent = () =>
  calls.filter((c) => c.cmd === "chat_send").map(({ args }) => [args.content, args.plan, args.approvedPlan]);

/** Sends `text` from the message field and lets the engine answer it, so the next can be sent. */
async function sendAndAnswer(text: string, n: number) {
  await userEvent.type(field(), `${text}{Enter}`);
  const base = { conversationId: C, messageId: `a${n}` };
  await act(() => emit("chat:stream-start", { ...base, provider: "anthropic", model: "m", contextWindow: null }));
  await act(() => emit("chat:stream-end", { ...base, stopReason: "end_turn", usage: null, partial: false }));
}

describe("plan mode in the composer", () => {
  it("the toggle sends each message in plan mode, and says so, until it is turned off", async () => {
    renderConversation(store, { conversationId: C });
    expect(toggle()).toHaveAccessibleName("Plan mode");
    expect(toggle()).toHaveAttribute("aria-pressed", "false");
    expect(screen.getByTestId(TID.planModeLine)).toBeEmptyDOMElement();

    await userEvent.click(toggle());
    expect(toggle()).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByTestId(TID.planModeLine)).toHaveTextContent("Plan mode: the model only reads, then proposes a plan");
    await sendAndAnswer("Look around", 1);
    // Still on for the next message.
    expect(toggle()).toHaveAttribute("aria-pressed", "true");
    await sendAndAnswer("Look closer", 2);

    await userEvent.click(toggle());
    expect(toggle()).toHaveAttribute("aria-pressed", "false");
    expect(screen.getByTestId(TID.planModeLine)).toBeEmptyDOMElement();
    await sendAndAnswer("Now do it", 3);
    expect(sent()).toEqual([
      ["Look around", true, null],
      ["Look closer", true, null],
      ["Now do it", null, null],
    ]);
  });

  it("Ctrl+Shift+P turns it on and off from anywhere in the window; Ctrl+P alone does nothing", async () => {
    renderConversation(store, { conversationId: C });
    await userEvent.keyboard("{Control>}p{/Control}");
    expect(toggle()).toHaveAttribute("aria-pressed", "false");
    await userEvent.keyboard("{Control>}{Shift>}P{/Shift}{/Control}");
    expect(toggle()).toHaveAttribute("aria-pressed", "true");
    await sendAndAnswer("Plan the change", 1);
    // With the caret in the message field too.
    field().focus();
    await userEvent.keyboard("{Control>}{Shift>}P{/Shift}{/Control}");
    expect(toggle()).toHaveAttribute("aria-pressed", "false");
    await waitFor(() => expect(field()).toHaveFocus());
    await sendAndAnswer("Carry on", 2);
    expect(sent()).toEqual([
      ["Plan the change", true, null],
      ["Carry on", null, null],
    ]);
  });

  it("the keys are Ctrl (Cmd) with Shift and P, whatever the case the key reports", () => {
    const key = (init: KeyboardEventInit) => shortcutOf(new KeyboardEvent("keydown", init));
    expect(key({ key: "P", ctrlKey: true, shiftKey: true })).toBe("togglePlanMode");
    expect(key({ key: "p", metaKey: true, shiftKey: true })).toBe("togglePlanMode");
    expect(key({ key: "p", ctrlKey: true })).toBeNull();
    expect(key({ key: "P", ctrlKey: true, shiftKey: true, altKey: true })).toBeNull();
  });

  it("is each conversation's own, and a read-only conversation cannot turn it on", async () => {
    setPlanMode("other", true);
    const { unmount } = renderConversation(store, { conversationId: C });
    expect(toggle()).toHaveAttribute("aria-pressed", "false");
    await userEvent.click(toggle());
    expect(planModeOf(C)).toBe(true);
    expect(planModeOf("other")).toBe(true);
    unmount();

    store.dispatch({ type: "read-only-loaded", conversationId: "broken", rows: [], reason: "damaged" });
    renderConversation(store, { conversationId: "broken" });
    expect(toggle()).toBeDisabled();
    await userEvent.keyboard("{Control>}{Shift>}P{/Shift}{/Control}");
    expect(planModeOf("broken")).toBe(false);
  });
});
