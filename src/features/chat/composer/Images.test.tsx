// Images in the window: attached in the composer (pasted, dropped, picked), checked before they are
// sent, sent with the message, and shown in the conversation (sent, reopened, returned by a tool).
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HistoryMessage, ModelEntry } from "../../../shared/ipc";
import { connectEvents } from "../../../shared/store/bridge";
import { createChatStore, type ChatStore } from "../../../shared/store/store";
import { TID } from "../../../shared/testids";
import { renderConversation } from "../../../test/renderConversation";
import type { ModelChoice } from "../transcript/ModelSwitch";
import { resetDraftsForTests } from "./drafts";

const C = "conv-images";
/** A real 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
/** A real 1×1 GIF. */
const GIF = "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7";

let calls: { cmd: string; args: Record<string, unknown> }[];
let models: ModelEntry[];
/** What `clipboard_image` answers: the system clipboard's image, or an error message to fail with. */
let systemClipboard: { mediaType: string; data: string } | null | { fails: string };
let store: ChatStore;
let stop: () => void;

beforeEach(async () => {
  resetDraftsForTests();
  calls = [];
  models = [];
  systemClipboard = null;
  mockIPC(
    (cmd, args) => {
      calls.push({ cmd, args: (args ?? {}) as Record<string, unknown> });
      if (cmd === "provider_models") return models;
      if (cmd === "clipboard_image") {
        if (systemClipboard && "fails" in systemClipboard) throw { code: "INTERNAL", message: systemClipboard.fails };
        return systemClipboard;
      }
      return null;
    },
    { shouldMockEvents: true },
  );
  store = createChatStore();
  stop = await connectEvents(store, (flush) => flush());
});
afterEach(() => stop());

const renderView = (modelChoice?: ModelChoice) => renderConversation(store, { conversationId: C, modelChoice });

function fileOf(base64: string, name: string, type: string): File {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return new File([bytes], name, { type });
}

/** A paste of `files` into the message field, as the clipboard hands a copied picture (no text). */
function paste(files: File[]) {
  fireEvent.paste(screen.getByTestId(TID.composerInput), {
    clipboardData: {
      files,
      types: ["Files"],
      items: files.map((f) => ({ kind: "file", type: f.type, getAsFile: () => f })),
      getData: () => "",
    },
  });
}

const sends = () => calls.filter((c) => c.cmd === "chat_send").map((c) => c.args);

describe("images in the composer", () => {
  it("a pasted image shows as a thumbnail, goes with the message on Enter (no text needed), and the composer clears", async () => {
    renderView();
    expect(screen.getByTestId(TID.send)).toBeDisabled();
    paste([fileOf(PNG, "shot.png", "image/png")]);
    const thumb = await screen.findByTestId(TID.composerImage);
    expect(within(thumb).getByRole("img")).toHaveAttribute("src", `data:image/png;base64,${PNG}`);
    expect(within(thumb).getByRole("img")).toHaveAccessibleName("Attached image 1: shot.png");
    expect(screen.getByTestId(TID.send)).toBeEnabled();

    await userEvent.type(screen.getByTestId(TID.composerInput), "{Enter}");
    expect(sends()).toEqual([{ conversationId: C, content: "", images: [{ mediaType: "image/png", data: PNG }], plan: null, approvedPlan: null }]);
    expect(screen.queryByTestId(TID.composerImages)).toBeNull();

    // The message as sent shows its image, and a click opens it larger until Esc.
    const sent = screen.getByTestId(TID.messageImages);
    expect(sent.closest(`[data-role="user"]`)).not.toBeNull();
    await userEvent.click(within(sent).getByTestId(TID.imageThumb));
    const viewer = screen.getByTestId(TID.imageViewer);
    expect(viewer).toHaveAttribute("role", "dialog");
    expect(within(viewer).getByRole("img")).toHaveAttribute("src", `data:image/png;base64,${PNG}`);
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByTestId(TID.imageViewer)).toBeNull();
    expect(within(sent).getByTestId(TID.imageThumb)).toHaveFocus();
  });

  it("sends text and images together; a removed image is not sent", async () => {
    renderView();
    paste([fileOf(PNG, "one.png", "image/png"), fileOf(GIF, "two.gif", "image/gif"), fileOf(GIF, "three.gif", "image/gif")]);
    await waitFor(() => expect(screen.getAllByTestId(TID.composerImage)).toHaveLength(3));
    await userEvent.click(screen.getByRole("button", { name: "Remove image 2 (two.gif)" }));
    expect(screen.getAllByTestId(TID.composerImage).map((e) => e.getAttribute("data-name"))).toEqual(["one.png", "three.gif"]);
    await userEvent.type(screen.getByTestId(TID.composerInput), "What is this?");
    await userEvent.click(screen.getByTestId(TID.send));
    expect(sends()).toEqual([
      {
        conversationId: C,
        content: "What is this?",
        images: [
          { mediaType: "image/png", data: PNG },
          { mediaType: "image/gif", data: GIF },
        ],
        plan: null,
        approvedPlan: null,
      },
    ]);
  });

  it("attaches images dropped on the composer or picked with the attach button", async () => {
    renderView();
    const box = screen.getByTestId(TID.composerInput).closest(".composer-box")!;
    fireEvent.drop(box, { dataTransfer: { files: [fileOf(PNG, "dropped.png", "image/png")], types: ["Files"] } });
    await screen.findByTestId(TID.composerImage);
    await userEvent.upload(screen.getByTestId(TID.composerFileInput), fileOf(GIF, "picked.gif", "image/gif"));
    await waitFor(() =>
      expect(screen.getAllByTestId(TID.composerImage).map((e) => e.getAttribute("data-name"))).toEqual(["dropped.png", "picked.gif"]),
    );
  });

  it("refuses a file that is not an image, whatever its name says, and sends nothing for it", async () => {
    renderView();
    paste([fileOf(btoa("just some notes\n"), "notes.png", "image/png")]);
    expect(await screen.findByTestId(TID.composerImageError)).toHaveTextContent("“notes.png” is not a PNG, JPEG, GIF or WebP image.");
    expect(screen.queryByTestId(TID.composerImage)).toBeNull();
    expect(screen.getByTestId(TID.send)).toBeDisabled();
    await userEvent.type(screen.getByTestId(TID.composerInput), "hello{Enter}");
    expect(sends()).toEqual([{ conversationId: C, content: "hello", images: null, plan: null, approvedPlan: null }]);
  });

  it("refuses an image over 20 MB before reading it, and more than 20 images", async () => {
    renderView();
    const big = fileOf(PNG, "huge.png", "image/png");
    Object.defineProperty(big, "size", { value: 20 * 1024 * 1024 + 1 });
    paste([big]);
    expect(await screen.findByTestId(TID.composerImageError)).toHaveTextContent("“huge.png” is larger than 20 MB.");
    expect(screen.queryByTestId(TID.composerImage)).toBeNull();

    paste(Array.from({ length: 21 }, (_, i) => fileOf(PNG, `p${i}.png`, "image/png")));
    await waitFor(() => expect(screen.getAllByTestId(TID.composerImage)).toHaveLength(20));
    expect(screen.getByTestId(TID.composerImageError)).toHaveTextContent("At most 20 images go with one message: 1 was not attached.");
    expect(screen.getByTestId(TID.composerAttach)).toBeDisabled();
  });

  it("a paste that carries nothing (WebKitGTK's paste of an image) takes the image from the system clipboard", async () => {
    systemClipboard = { mediaType: "image/png", data: PNG };
    renderView();
    fireEvent.paste(screen.getByTestId(TID.composerInput), { clipboardData: { files: [], types: [], items: [], getData: () => "" } });
    const thumb = await screen.findByTestId(TID.composerImage);
    expect(within(thumb).getByRole("img")).toHaveAttribute("src", `data:image/png;base64,${PNG}`);
    expect(calls.filter((c) => c.cmd === "clipboard_image")).toHaveLength(1);
    await userEvent.type(screen.getByTestId(TID.composerInput), "{Enter}");
    expect(sends()).toEqual([{ conversationId: C, content: "", images: [{ mediaType: "image/png", data: PNG }], plan: null, approvedPlan: null }]);
  });

  it("says why the system clipboard's image could not be pasted, and asks it nothing for a text paste", async () => {
    systemClipboard = { fails: "The image on the clipboard is larger than 20 MB." };
    renderView();
    fireEvent.paste(screen.getByTestId(TID.composerInput), { clipboardData: { files: [], types: [], items: [], getData: () => "" } });
    expect(await screen.findByTestId(TID.composerImageError)).toHaveTextContent(
      "The clipboard's image could not be pasted: The image on the clipboard is larger than 20 MB.",
    );
    systemClipboard = null;
    fireEvent.paste(screen.getByTestId(TID.composerInput), {
      clipboardData: { files: [], types: ["text/plain"], items: [], getData: () => "words" },
    });
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(calls.filter((c) => c.cmd === "clipboard_image")).toHaveLength(1);
  });

  it("pastes text as text when the clipboard also holds a picture of it", async () => {
    renderView();
    const file = fileOf(PNG, "cells.png", "image/png");
    fireEvent.paste(screen.getByTestId(TID.composerInput), {
      clipboardData: { files: [file], types: ["text/plain", "Files"], items: [], getData: () => "a\tb" },
    });
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(screen.queryByTestId(TID.composerImage)).toBeNull();
  });

  it("says when the chosen model does not take images, once one is attached", async () => {
    models = [{ id: "qwen2.5-coder:7b", displayName: null, supportsTools: true, contextWindow: null, takesImages: false }];
    renderView({ provider: "ollama", model: "qwen2.5-coder:7b", onChange: () => Promise.resolve() });
    // No image, no question to the provider.
    expect(calls.some((c) => c.cmd === "provider_models")).toBe(false);
    paste([fileOf(PNG, "shot.png", "image/png")]);
    expect(await screen.findByTestId(TID.composerImageHint)).toHaveTextContent(
      "This model does not take images; it will be told an image was attached.",
    );
    expect(calls.filter((c) => c.cmd === "provider_models")).toEqual([{ cmd: "provider_models", args: { provider: "ollama" } }]);
  });

  it("gives no hint for a model that takes images", async () => {
    models = [{ id: "llava:13b", displayName: null, supportsTools: false, contextWindow: null, takesImages: true }];
    renderView({ provider: "ollama", model: "llava:13b", onChange: () => Promise.resolve() });
    paste([fileOf(PNG, "shot.png", "image/png")]);
    await screen.findByTestId(TID.composerImage);
    await waitFor(() => expect(calls.some((c) => c.cmd === "provider_models")).toBe(true));
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(screen.queryByTestId(TID.composerImageHint)).toBeNull();
  });
});

describe("images in a reopened conversation", () => {
  it("shows a user message's image blocks and a tool's returned picture as thumbnails", async () => {
    const history: HistoryMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "Look at this" },
          { type: "image", mediaType: "image/gif", data: GIF },
        ],
      },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "file_read", input: { path: "logo.png" }, rawArguments: null }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            toolUseId: "t1",
            toolName: "file_read",
            content: "logo.png: PNG, 1×1",
            isError: false,
            images: [{ mediaType: "image/png", data: PNG }],
          },
        ],
      },
      // A message of only an image is a message too.
      { role: "user", content: [{ type: "image", mediaType: "image/png", data: PNG }] },
    ];
    renderView();
    act(() => store.dispatch({ type: "history-loaded", conversationId: C, history }));

    const users = screen.getAllByTestId(TID.message).filter((m) => m.getAttribute("data-role") === "user");
    expect(users).toHaveLength(2);
    expect(within(users[0]!).getByTestId(TID.messageText)).toHaveTextContent("Look at this");
    const first = within(users[0]!).getByTestId(TID.messageImages);
    expect(first.querySelector("img")).toHaveAttribute("src", `data:image/gif;base64,${GIF}`);
    expect(within(first).getByRole("button")).toHaveAccessibleName("Open image 1 of 1");
    expect(within(users[1]!).queryByTestId(TID.messageText)).toBeNull();
    expect(users[1]!.querySelector("img")).toHaveAttribute("src", `data:image/png;base64,${PNG}`);

    const tool = screen.getByTestId(TID.toolBlock);
    expect(within(tool).getByTestId(TID.toolImages).querySelector("img")).toHaveAttribute("src", `data:image/png;base64,${PNG}`);
  });
});
