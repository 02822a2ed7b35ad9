import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ChatStoreProvider, createChatStore } from "../../shared/store/store";
import { makeConfirm } from "../../test/builders";
import { ToolSlot } from "./ToolSlot";

describe("ToolSlot", () => {
  it("highlights the block the first approval asks about, not a same-named call of another conversation", () => {
    const store = createChatStore();
    for (const conversationId of ["c-first", "c-second"]) {
      const c = makeConfirm({ conversationId, toolId: "call_0", confirmId: `q-${conversationId}` });
      store.dispatch({
        event: "chat:tool-start",
        payload: { conversationId, messageId: c.messageId, toolId: c.toolId, toolName: c.toolName, input: c.input },
      });
      store.dispatch({ event: "chat:tool-confirm", payload: c });
    }
    const slot = (conversationId: string) =>
      render(
        <ChatStoreProvider store={store}>
          <ToolSlot conversationId={conversationId} toolId="call_0" />
        </ChatStoreProvider>,
      ).container;
    expect(slot("c-first").querySelector(".tool-block-highlighted")).not.toBeNull();
    expect(slot("c-second").querySelector(".tool-block-highlighted")).toBeNull();
  });
});
