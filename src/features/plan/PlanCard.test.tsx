// A proposed plan's card: shown under its message when `chat:plan` arrives, its steps edited (text,
// added, removed, moved), approval held back while a step is not one the engine takes, approved
// with the edited steps (plan mode off), set aside by "Keep planning", and found again in a
// reopened conversation's history.
import { act, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HistoryMessage, JsonValue, TodoItem } from "../../shared/ipc";
import { connectEvents } from "../../shared/store/bridge";
import { createChatStore, type ChatStore } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import { renderConversation } from "../../test/renderConversation";
import { resetDraftsForTests } from "../chat/composer/drafts";
import { planModeOf, resetPlanModeForTests, setPlanMode } from "./planMode";

const C = "conv-plan";
const PLAN = "## Findings\n\nThe **parser** reads the file twice.";
const STEPS = ["Read the parser", "Cache the file", "Run the tests"];
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

const ev = (event: string, payload: object) => act(() => emit(event, { conversationId: C, messageId: "a1", ...payload }));

/** The user asks in plan mode; the model reads, proposes its plan, and the turn ends. */
async function planTurn({ end = true } = {}) {
  setPlanMode(C, true);
  renderConversation(store, { conversationId: C });
  await userEvent.type(screen.getByTestId(TID.composerInput), "Make loading faster{Enter}");
  await ev("chat:stream-start", { provider: "anthropic", model: "m", contextWindow: null });
  await ev("chat:text-delta", { delta: "I looked." });
  const input = { plan: PLAN, steps: STEPS };
  await ev("chat:tool-start", { toolId: "p1", toolName: "propose_plan", category: "system", input });
  await ev("chat:tool-result", { toolId: "p1", status: "success", result: "shown", code: null, report: null, metadata: null });
  await ev("chat:plan", input);
  if (end) await ev("chat:stream-end", { stopReason: "end_turn", usage: null, partial: false });
}

const card = () => screen.getByTestId(TID.planCard);
const inputs = () => within(card()).getAllByTestId(TID.planStepInput) as HTMLInputElement[];
const values = () => inputs().map((i) => i.value);
const approve = () => within(card()).getByRole("button", { name: "Approve and start" });
const chatSends = () => calls.filter((c) => c.cmd === "chat_send").map((c) => c.args);

describe("the plan card", () => {
  it("shows under the message that proposed it: the plan as markdown, its steps to edit", async () => {
    await planTurn();
    const answer = screen.getAllByTestId(TID.message).find((m) => m.dataset.role === "assistant")!;
    expect(answer.compareDocumentPosition(card()) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(answer).not.toContainElement(card());
    expect(card()).toHaveAttribute("data-state", "open");
    expect(await within(card()).findByRole("heading", { name: "Findings" })).toBeInTheDocument();
    expect(within(card()).getByText("parser").tagName).toBe("STRONG");
    expect(values()).toEqual(STEPS);
    expect(inputs().map((i) => i.getAttribute("aria-label"))).toEqual(["Step 1", "Step 2", "Step 3"]);
    expect(approve()).toBeEnabled();
  });

  it("is for its own conversation only", async () => {
    renderConversation(store, { conversationId: C });
    await act(() => emit("chat:plan", { conversationId: "other", messageId: "x", plan: PLAN, steps: STEPS }));
    expect(screen.queryByTestId(TID.planCard)).toBeNull();
  });

  it("waits for the turn to end before it can be approved", async () => {
    await planTurn({ end: false });
    expect(approve()).toBeDisabled();
    await ev("chat:stream-end", { stopReason: "end_turn", usage: null, partial: false });
    expect(approve()).toBeEnabled();
  });

  it("edits the steps: their text, a step added, one removed, moved up and down", async () => {
    const user = userEvent.setup();
    await planTurn();
    await user.clear(inputs()[1]!);
    await user.type(inputs()[1]!, "Cache the file in memory");
    expect(values()).toEqual(["Read the parser", "Cache the file in memory", "Run the tests"]);

    await user.click(within(card()).getByRole("button", { name: "Add a step" }));
    expect(inputs()).toHaveLength(4);
    expect(inputs()[3]).toHaveFocus();
    await user.keyboard("Measure again");
    expect(values()[3]).toBe("Measure again");

    await user.click(within(card()).getByRole("button", { name: "Move step 4 up" }));
    expect(values()).toEqual(["Read the parser", "Cache the file in memory", "Measure again", "Run the tests"]);
    // The focus stays with the step moved.
    expect(within(card()).getByRole("button", { name: "Move step 3 up" })).toHaveFocus();
    await user.click(within(card()).getByRole("button", { name: "Move step 1 down" }));
    expect(values()).toEqual(["Cache the file in memory", "Read the parser", "Measure again", "Run the tests"]);
    expect(within(card()).getByRole("button", { name: "Move step 1 up" })).toBeDisabled();
    expect(within(card()).getByRole("button", { name: "Move step 4 down" })).toBeDisabled();

    await user.click(within(card()).getByRole("button", { name: "Remove step 2" }));
    expect(values()).toEqual(["Cache the file in memory", "Measure again", "Run the tests"]);
    // The focus goes to the step that took its place.
    expect(inputs()[1]).toHaveFocus();
    expect(chatSends()).toHaveLength(1);
  });

  it("holds approval back while a step is empty or too long, or there is none, and says why", async () => {
    const user = userEvent.setup();
    await planTurn();
    await user.clear(inputs()[0]!);
    expect(approve()).toBeDisabled();
    expect(inputs()[0]).toHaveAttribute("aria-invalid", "true");
    expect(inputs()[0]).toHaveAccessibleDescription("Step 1 is empty: write what it does, or remove it.");
    expect(within(card()).getByTestId(TID.planProblems)).toHaveTextContent("Step 1 is empty");
    expect(approve()).toHaveAccessibleDescription(/Step 1 is empty/);

    await user.type(inputs()[0]!, "Read it");
    await user.clear(inputs()[2]!);
    await user.click(inputs()[2]!);
    await user.paste("x".repeat(501));
    expect(approve()).toBeDisabled();
    expect(within(card()).getByTestId(TID.planProblems)).toHaveTextContent(
      "Step 3 is 501 characters long; a step has at most 500.",
    );
    await user.type(inputs()[2]!, "{Backspace}");
    expect(within(card()).queryByTestId(TID.planProblems)).toBeNull();
    expect(approve()).toBeEnabled();

    for (let i = 0; i < 3; i++) await user.click(within(card()).getByRole("button", { name: "Remove step 1" }));
    expect(within(card()).getByTestId(TID.planProblems)).toHaveTextContent("A plan needs at least one step: add one.");
    expect(within(card()).getByRole("button", { name: "Add a step" })).toHaveFocus();
    await user.click(approve());
    expect(chatSends()).toHaveLength(1);
  });

  it("approving sends the edited steps, turns plan mode off and shows the plan approved", async () => {
    const user = userEvent.setup();
    await planTurn();
    await user.clear(inputs()[1]!);
    await user.type(inputs()[1]!, "  Cache the file in memory  ");
    await user.click(within(card()).getByRole("button", { name: "Remove step 3" }));
    await user.click(approve());

    expect(chatSends()[1]).toEqual({
      conversationId: C,
      content: "Carry out the approved plan.",
      images: null,
      plan: null,
      approvedPlan: ["Read the parser", "Cache the file in memory"],
    });
    expect(planModeOf(C)).toBe(false);
    expect(screen.getByTestId(TID.planToggle)).toHaveAttribute("aria-pressed", "false");
    expect(card()).toHaveAttribute("data-state", "approved");
    expect(within(card()).queryAllByTestId(TID.planStepInput)).toEqual([]);
    expect(within(card()).queryByRole("button")).toBeNull();
    expect(within(card()).getAllByTestId(TID.planStep).map((s) => s.textContent)).toEqual([
      "Read the parser",
      "Cache the file in memory",
    ]);
    expect(card()).toHaveTextContent("approved");
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());
  });

  it("Keep planning leaves plan mode on and the caret in the message field; the next message sets the card aside", async () => {
    const user = userEvent.setup();
    await planTurn();
    await user.click(within(card()).getByRole("button", { name: "Keep planning" }));
    await waitFor(() => expect(screen.getByTestId(TID.composerInput)).toHaveFocus());
    expect(planModeOf(C)).toBe(true);
    await user.keyboard("Also look at the cache{Enter}");
    expect(chatSends()[1]).toMatchObject({ content: "Also look at the cache", plan: true, approvedPlan: null });
    expect(card()).toHaveAttribute("data-state", "passed");
    expect(card()).toHaveTextContent("not approved");
    expect(within(card()).queryAllByTestId(TID.planStepInput)).toEqual([]);
    expect(within(card()).getAllByTestId(TID.planStep).map((s) => s.textContent)).toEqual(STEPS);
  });
});

describe("a reopened conversation's plan", () => {
  const text = (role: "user" | "assistant", t: string): HistoryMessage => ({ role, content: [{ type: "text", text: t }] });
  const use = (id: string, name: string, input: JsonValue): HistoryMessage => ({
    role: "assistant",
    content: [{ type: "tool_use", id, name, input, rawArguments: null }],
  });
  const result = (id: string, isError = false): HistoryMessage => ({
    role: "user",
    content: [{ type: "tool_result", toolUseId: id, content: isError ? "refused" : "shown", isError }],
  });
  const proposed = [text("user", "Make loading faster"), use("p1", "propose_plan", { plan: PLAN, steps: STEPS }), result("p1")];

  async function reopen(history: HistoryMessage[]) {
    store.dispatch({ type: "history-loaded", conversationId: C, history });
    // Rendered, and what it asks on mounting (the session's grants) answered.
    await act(async () => void renderConversation(store, { conversationId: C }));
  }

  it("nothing written after it: the card is there to edit and approve, under its message", async () => {
    await reopen(proposed);
    expect(card()).toHaveAttribute("data-state", "open");
    expect(values()).toEqual(STEPS);
    const [, answer] = screen.getAllByTestId(TID.message);
    expect(answer!.dataset.messageId).toBe("history-1");
    expect(answer!.compareDocumentPosition(card()) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await userEvent.click(approve());
    expect(chatSends()[0]).toMatchObject({ content: "Carry out the approved plan.", approvedPlan: STEPS });
  });

  it("approved: read-only, with the steps approved (the task list Warden wrote for it)", async () => {
    const items: TodoItem[] = [
      { id: "1", text: "Read the parser", state: "pending" },
      { id: "2", text: "Cache it", state: "pending" },
    ];
    await reopen([
      ...proposed,
      text("user", "Carry out the approved plan."),
      use("warden_0123456789ab_0", "todo_write", { items }),
      { role: "user", content: [{ type: "tool_result", toolUseId: "warden_0123456789ab_0", content: "saved", isError: false, report: { todo: items } }] },
      text("assistant", "Done."),
    ]);
    expect(card()).toHaveAttribute("data-state", "approved");
    expect(within(card()).queryAllByTestId(TID.planStepInput)).toEqual([]);
    expect(within(card()).getAllByTestId(TID.planStep).map((s) => s.textContent)).toEqual(["Read the parser", "Cache it"]);
    expect(screen.getByTestId(TID.todoPanel)).toHaveTextContent("Tasks · 0 of 2 done");
  });

  it("the conversation went on without it: read-only, the steps as proposed", async () => {
    await reopen([...proposed, text("user", "Never mind, explain the parser"), text("assistant", "It parses.")]);
    expect(card()).toHaveAttribute("data-state", "passed");
    expect(within(card()).queryAllByTestId(TID.planStepInput)).toEqual([]);
    expect(within(card()).getAllByTestId(TID.planStep).map((s) => s.textContent)).toEqual(STEPS);
  });

  it("a propose_plan that was refused, or that is not a plan, shows no card", async () => {
    await reopen([
      text("user", "Plan it"),
      use("p1", "propose_plan", { plan: PLAN, steps: STEPS }),
      result("p1", true),
      use("p2", "propose_plan", { plan: PLAN, steps: "not a list" }),
      result("p2"),
    ]);
    expect(screen.queryByTestId(TID.planCard)).toBeNull();
  });
});
