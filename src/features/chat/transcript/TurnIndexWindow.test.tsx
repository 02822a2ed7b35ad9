// The turn index (each turn's changes and checkpoints, what the mounted messages show under them)
// is built for the mounted messages only. Built over the whole conversation on every store change,
// a 2,000-message conversation made hundreds of KB of short-lived objects per streamed batch, which
// WebKit's collector let pile up to hundreds of MB before a full collection (bench/app, "PSS after
// … messages", release build).
import { act, render } from "@testing-library/react";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ChatStoreProvider, createChatStore, type ChatStore } from "../../../shared/store/store";
import { C, textTurn } from "../../checkpoints/testEvents";
import { ConversationView } from "./ConversationView";
import { WINDOW } from "./useMessageWindow";

// Counts the answers whose tools the turn index reads.
const reads = vi.hoisted(() => ({ n: 0 }));
vi.mock("../../../shared/store/selectors", async (original) => {
  const actual = await original<typeof import("../../../shared/store/selectors")>();
  return {
    ...actual,
    toolsInOrder: (...args: Parameters<typeof actual.toolsInOrder>) => {
      reads.n++;
      return actual.toolsInOrder(...args);
    },
  };
});

let store: ChatStore;
beforeEach(() => {
  store = createChatStore();
  render(
    <ChatStoreProvider store={store}>
      <ConversationView conversationId={C} />
    </ChatStoreProvider>,
  );
});

describe("a long conversation's turn index", () => {
  it("reads the mounted messages' turns on a store change, not every turn", () => {
    act(() => store.dispatchMany(Array.from({ length: 400 }, (_, i) => textTurn(i)).flat()));
    reads.n = 0;
    act(() => store.dispatchMany(textTurn(400)));
    // One render of the new turn reads at most the mounted answers (and the turn just above them).
    expect(reads.n).toBeGreaterThan(0);
    expect(reads.n).toBeLessThanOrEqual(WINDOW);
  });
});
