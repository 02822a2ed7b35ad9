// MCP resources attached to a message: the connected servers' resources offered in the composer,
// one read and attached, sent with the message in a fence it cannot close, removable, and a
// resource that cannot be read said so.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { McpResourceText, McpServerStatus } from "../../../shared/ipc";
import { connectEvents } from "../../../shared/store/bridge";
import { createChatStore, type ChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { renderConversation } from "../../../test/renderConversation";
import { resetDraftsForTests } from "./drafts";
import { offeredResources, withResources } from "./resources";
import { remotePlace } from "../../../shared/projectPlace";

const C = "conv-resources";

function server(name: string, state: "connected" | "starting", resources: string[]): McpServerStatus {
  return { name, transport: "stdio", tools: [], stderrTail: [], resources, prompts: [], state } as McpServerStatus;
}

const STATUSES = [
  server("everything", "connected", ["Resource 1 <test://static/resource/1>", "(could not list: timeout)"]),
  server("later", "starting", ["Not yet <test://later>"]),
];
const READ: McpResourceText = {
  server: "everything",
  uri: "test://static/resource/1",
  text: "Resource 1: a text with ``` inside",
  truncated: false,
};

let calls: { cmd: string; args: Record<string, unknown> }[];
let unreadable: boolean;
let store: ChatStore;
let stop: () => void;

beforeEach(async () => {
  resetDraftsForTests();
  calls = [];
  unreadable = false;
  mockIPC(
    (cmd, args) => {
      calls.push({ cmd, args: (args ?? {}) as Record<string, unknown> });
      if (cmd === "mcp_status" || cmd === "remote_mcp_status") return STATUSES;
      if (cmd === "mcp_read_resource" || cmd === "remote_mcp_read_resource") {
        if (unreadable) throw { code: "PROVIDER", message: "could not read the resource: the server answered with an error: no such resource" };
        return READ;
      }
      if (cmd === "provider_models") return [];
      return null;
    },
    { shouldMockEvents: true },
  );
  store = createChatStore();
  stop = await connectEvents(store, (flush) => flush());
});
afterEach(() => stop());

const renderView = () => renderConversation(store, { conversationId: C });

const sends = () => calls.filter((c) => c.cmd === "chat_send").map((c) => c.args);

/** The first resource the open menu offers. */
async function firstItem(): Promise<HTMLElement> {
  const [item] = await screen.findAllByTestId(TID.composerResourceItem);
  if (!item) throw new Error("no resource offered");
  return item;
}

describe("resources attached over a remote project's conversation", () => {
  it("are those of the servers its session runs there, read there", async () => {
    const user = userEvent.setup();
    const place = remotePlace("conv-remote", "build-box:/srv/app", "build-box");
    renderConversation(store, { conversationId: C, slash: { place } });
    await user.click(screen.getByTestId(TID.composerResourceAttach));
    await user.click(await firstItem());
    expect((await screen.findByTestId(TID.composerResource)).dataset.uri).toBe("test://static/resource/1");
    const asked = calls.filter((c) => c.cmd.includes("mcp_")).map((c) => [c.cmd, c.args]);
    expect(asked).toEqual([
      ["remote_mcp_status", { conversationId: "conv-remote" }],
      ["remote_mcp_read_resource", { conversationId: "conv-remote", name: "everything", uri: "test://static/resource/1" }],
    ]);
  });

  it("offers none while the remote project is not linked, and says why", async () => {
    const user = userEvent.setup();
    renderConversation(store, { conversationId: C, slash: { place: null } });
    await user.click(screen.getByTestId(TID.composerResourceAttach));
    expect(await screen.findByText(/not linked: link it to attach/)).toBeInTheDocument();
    expect(calls.filter((c) => c.cmd.includes("mcp_"))).toEqual([]);
  });
});

describe("resources attached to a message", () => {
  it("offers the connected servers' resources, attaches one and sends its text before the message", async () => {
    const user = userEvent.setup();
    renderView();
    await user.click(screen.getByTestId(TID.composerResourceAttach));
    const items = await screen.findAllByTestId(TID.composerResourceItem);
    expect(items.map((item) => item.dataset.uri)).toEqual(["test://static/resource/1"]);
    await user.click(await firstItem());
    const chip = await screen.findByTestId(TID.composerResource);
    expect(chip.dataset.uri).toBe("test://static/resource/1");
    expect(screen.queryByTestId(TID.composerResourceMenu)).toBeNull();
    expect(calls.find((c) => c.cmd === "mcp_read_resource")?.args).toEqual({ name: "everything", uri: "test://static/resource/1" });

    await user.type(screen.getByTestId(TID.composerInput), "Summarise it");
    await user.click(screen.getByTestId(TID.send));
    await waitFor(() => expect(sends()).toHaveLength(1));
    const text = String(sends().at(0)?.content);
    expect(text).toBe(
      "Attached from the MCP server “everything”: test://static/resource/1\n````\nResource 1: a text with ``` inside\n````\n\nSummarise it",
    );
    expect(screen.queryByTestId(TID.composerResources)).toBeNull();
  });

  it("can be removed before sending, and a resource alone can be sent", async () => {
    const user = userEvent.setup();
    renderView();
    await user.click(screen.getByTestId(TID.composerResourceAttach));
    await user.click(await firstItem());
    await user.click(await screen.findByTestId(TID.composerResourceRemove));
    expect(screen.queryByTestId(TID.composerResource)).toBeNull();
    expect(screen.getByTestId(TID.send)).toBeDisabled();

    await user.click(screen.getByTestId(TID.composerResourceAttach));
    await user.click(await firstItem());
    await screen.findByTestId(TID.composerResource);
    expect(screen.getByTestId(TID.send)).toBeEnabled();
  });

  it("says why a resource could not be read and attaches nothing", async () => {
    unreadable = true;
    const user = userEvent.setup();
    renderView();
    await user.click(screen.getByTestId(TID.composerResourceAttach));
    await user.click(await firstItem());
    const alert = await screen.findByTestId(TID.composerResourceError);
    expect(alert.textContent).toContain("Could not read test://static/resource/1");
    expect(alert.textContent).toContain("no such resource");
    expect(screen.queryByTestId(TID.composerResource)).toBeNull();
    const menu = screen.getByTestId(TID.composerResourceMenu);
    await user.keyboard("{Escape}");
    expect(menu.isConnected).toBe(false);
    expect(document.activeElement).toBe(screen.getByTestId(TID.composerResourceAttach));

    // Opened again, a press elsewhere closes it.
    await user.click(screen.getByTestId(TID.composerResourceAttach));
    await screen.findByTestId(TID.composerResourceMenu);
    await user.click(screen.getByTestId(TID.composerInput));
    expect(screen.queryByTestId(TID.composerResourceMenu)).toBeNull();
  });

  it("says when no connected server offers resources", async () => {
    mockIPC((cmd) => (cmd === "mcp_status" ? [server("later", "starting", ["X <test://x>"])] : null), { shouldMockEvents: true });
    const user = userEvent.setup();
    renderView();
    await user.click(screen.getByTestId(TID.composerResourceAttach));
    const menu = await screen.findByTestId(TID.composerResourceMenu);
    await waitFor(() => expect(within(menu).getByText(/No connected MCP server offers resources/)).toBeTruthy());
  });
});

describe("resources.ts", () => {
  it("reads 'name <uri>' lines of connected servers only, and fences a resource longer than its backtick runs", () => {
    expect(offeredResources(STATUSES)).toEqual([{ server: "everything", name: "Resource 1", uri: "test://static/resource/1" }]);
    expect(withResources("hi", [])).toBe("hi");
    const cut = withResources("", [{ ...READ, text: "plain", truncated: true }]);
    expect(cut).toBe("Attached from the MCP server “everything”: test://static/resource/1 (cut at 50,000 characters)\n```\nplain\n```");
  });
});
