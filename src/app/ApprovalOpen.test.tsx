// A click on an approval's desktop notification (the app sends `approval:open` once it has raised
// the window): the window shows that conversation — leaving Settings if they are open — with the
// focus on the approval card.
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import type { ConversationSummary, Settings } from "../shared/ipc";
import { TID } from "../shared/testids";
import { makeConfirm } from "../test/builders";
import { App } from "./App";

const SETTINGS: Settings = {
  trustLevel: "guided",
  activeProvider: "anthropic",
  providers: {},
  projectDir: "/home/me/project",
  toolPermissions: {},
  approvalTimeoutSecs: 30,
  searxngUrl: "http://localhost:8080",
};

const saved = (id: string, title: string): ConversationSummary => ({
  id,
  title,
  projectRoot: "/home/me/project",
  updatedAtMs: 1_790_000_000_000,
  messageCount: 2,
});

function boot() {
  mockIPC(
    (cmd) => {
      switch (cmd) {
        case "settings_get":
          return SETTINGS;
        case "keys_status":
          return [{ name: "anthropic", isSet: true }];
        case "provider_readiness":
          return { ready: true, reason: null };
        case "chat_history":
          return [];
        case "chat_list":
          return { conversations: [saved("conv-a", "First"), saved("conv-b", "Second")], nextOffset: null };
        case "provider_models":
          return [];
        default:
          return null;
      }
    },
    { shouldMockEvents: true },
  );
}

const shownConversation = () =>
  screen.getAllByTestId(TID.conversationItem).find((i) => i.getAttribute("aria-current") === "page")?.getAttribute("data-conversation-id");

describe("a clicked approval notification", () => {
  it("shows the asking conversation with the focus on its card", async () => {
    boot();
    render(<App />);
    await userEvent.click(await screen.findByText("First"));
    await waitFor(() => expect(shownConversation()).toBe("conv-a"));

    await emit("chat:tool-confirm", makeConfirm({ conversationId: "conv-b", confirmId: "q-b", toolId: "tb" }));
    await screen.findByTestId(TID.approvalDialog);
    // The user went on typing in the conversation shown.
    screen.getByTestId(TID.composerInput).focus();
    expect(screen.getByTestId(TID.approvalDialog)).not.toHaveFocus();

    await emit("approval:open", { conversationId: "conv-b", confirmId: "q-b" });
    await waitFor(() => expect(shownConversation()).toBe("conv-b"));
    await waitFor(() => expect(screen.getByTestId(TID.approvalDialog)).toHaveFocus());
  });

  it("leaves Settings for it", async () => {
    boot();
    render(<App />);
    await userEvent.click(await screen.findByText("First"));
    await emit("chat:tool-confirm", makeConfirm({ conversationId: "conv-b", confirmId: "q-b", toolId: "tb" }));
    await userEvent.click(screen.getByTestId(TID.settingsOpen));
    await screen.findByTestId(TID.settingsPanel);

    await emit("approval:open", { conversationId: "conv-b", confirmId: "q-b" });
    await waitFor(() => expect(screen.queryByTestId(TID.settingsPanel)).toBeNull());
    await waitFor(() => expect(shownConversation()).toBe("conv-b"));
    await waitFor(() => expect(screen.getByTestId(TID.approvalDialog)).toHaveFocus());
  });
});
