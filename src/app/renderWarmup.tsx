// The first time WebKit lays out text in a font it has not used yet (a size, a weight, the
// monospace face, a symbol), it asks fontconfig, at 10–25 ms a face; the first tool block of a
// session cost ~100 ms of layout that way, in the middle of a stream (bench/app/run.sh with
// BENCH_PROBE=1). So once the window has settled after start, the transcript's own renderers lay
// out a sample conversation — hidden, a piece per frame — and are removed again: the cost is paid
// while nothing moves.
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { Fragment, type ReactNode } from "react";
import { loadMarkdown } from "../features/chat/transcript/LazyMarkdown";
import { AssistantMessageView, UserMessageView } from "../features/chat/transcript/MessageView";
import { toolKind } from "../features/tools/summary";
import { ToolBody } from "../features/tools/ToolBody";
import type { ProtocolEvent } from "../shared/ipc";
import type { Action } from "../shared/store/types";
import { ChatStoreProvider, createChatStore, type ChatStore } from "../shared/store/store";

const C = "warmup";
const M = "warmup-answer";

const MARKDOWN = [
  "# Heading",
  "## Smaller heading",
  "A paragraph with **bold**, *emphasis*, `code`, ~~struck~~ and a [link](https://example.com).",
  "- a list item\n- another\n  1. nested",
  "> a quote",
  "| a | b |\n|---|---|\n| 1 | 2 |",
  "```rust\nfn main() { println!(\"{}\", 1 + 2); }\n```",
  "```ts\nconst x: number = 1; // comment\n```",
].join("\n\n");

const at = (event: string, payload: object) =>
  ({ event, payload: { conversationId: C, messageId: M, ...payload } }) as unknown as ProtocolEvent;

/** A conversation that uses every renderer of the transcript. */
function sampleEvents(): Action[] {
  return [
    at("chat:stream-start", { provider: "anthropic", model: "warmup" }),
    at("chat:thinking-delta", { delta: "Thinking about it." }),
    at("chat:text-delta", { delta: MARKDOWN }),
    at("chat:tool-start", { toolId: "read", toolName: "file_read", category: "fileRead", input: { path: "README.md" } }),
    at("chat:tool-start", { toolId: "sh", toolName: "bash", category: "exec", input: { command: "ls -la" } }),
    at("chat:tool-delta", { toolId: "sh", stream: "stdout", chunk: "\u001b[1;32mok\u001b[0m  plain ✓ ✕\n" }),
    at("chat:tool-delta", { toolId: "sh", stream: "stderr", chunk: "warning: x\n" }),
    at("chat:tool-start", { toolId: "write", toolName: "file_write", category: "fileChange", input: { path: "a.txt", content: "b\n" } }),
    at("chat:tool-confirm", {
      confirmId: "confirm-write",
      toolId: "write",
      toolName: "file_write",
      input: { path: "a.txt", content: "b\n" },
      dangerLevel: "dangerous",
      preview: { kind: "diff", path: "a.txt", diff: "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n" },
      timeoutSecs: 60,
    }),
    // Approved and running: the block shows the diff (while it waited, only the card did).
    { type: "approval-answered", confirmId: "confirm-write", approved: true },
    at("chat:tool-start", { toolId: "find", toolName: "search_in_files", category: "search", input: { query: "x" } }),
    at("chat:tool-result", {
      toolId: "find",
      status: "success",
      result: "src/a.rs:1: x\nsrc/b.rs:2: x",
      report: {
        hits: {
          items: [
            { location: "src/a.rs", line: 1, text: "x" },
            { location: "src/b.rs", line: 2, text: "x" },
          ],
          capped: false,
        },
      },
      metadata: null,
    }),
    at("chat:tool-start", { toolId: "web", toolName: "web_search", category: "web", input: { query: "x" } }),
    at("chat:tool-result", { toolId: "web", status: "error", result: "failed", code: "EXECUTION_ERROR" }),
    at("chat:error", { code: "RATE_LIMITED", message: "Slow down.", retryable: false }),
  ];
}

/** The sample's store and the pieces laid out one per frame (each frame keeps the earlier ones). */
function sample(): { store: ChatStore; pieces: ReactNode[] } {
  const store = createChatStore();
  store.dispatchMany(sampleEvents());
  const conversation = store.getState().conversations[C];
  const message = conversation?.messages[M];
  if (!conversation || message?.kind !== "assistant") return { store, pieces: [] };
  const pieces = [
    <UserMessageView message={{ kind: "user", id: "warmup-question", text: "A question?", at: null }} />,
    <AssistantMessageView conversationId={C} message={message} />,
    // Finished blocks are collapsed in the message: lay out their bodies too.
    ...Object.values(conversation.tools).map((tool) => <ToolBody tool={tool} kind={toolKind(tool.category)} />),
  ];
  return { store, pieces };
}

const HIDDEN: Partial<CSSStyleDeclaration> = {
  position: "fixed",
  top: "0",
  left: "0",
  width: "48rem",
  visibility: "hidden",
  pointerEvents: "none",
  zIndex: "-1",
};

/** Lays the transcript's renderers out once, hidden, after `delayMs`; returns a cancel function. */
export function warmUpRenderers({ delayMs = 800 }: { delayMs?: number } = {}): () => void {
  if (typeof requestAnimationFrame !== "function" || typeof document === "undefined") return () => {};
  let cancelled = false;
  let host: HTMLDivElement | null = null;
  let root: ReturnType<typeof createRoot> | null = null;
  const finish = () => {
    cancelled = true;
    root?.unmount();
    host?.remove();
    root = null;
    host = null;
  };
  const start = () => {
    if (cancelled) return;
    const { store, pieces } = sample();
    host = document.createElement("div");
    host.setAttribute("aria-hidden", "true");
    host.inert = true;
    host.className = "messages";
    Object.assign(host.style, HIDDEN);
    document.body.append(host);
    root = createRoot(host);
    let shown = 0;
    const step = () => {
      if (cancelled || !root || !host) return;
      if (shown >= pieces.length) {
        finish();
        return;
      }
      shown++;
      const mounted = pieces.slice(0, shown);
      flushSync(() =>
        root?.render(
          <ChatStoreProvider store={store}>
            {mounted.map((piece, i) => (
              <Fragment key={i}>{piece}</Fragment>
            ))}
          </ChatStoreProvider>,
        ),
      );
      void host.offsetHeight; // lay it out now, inside this frame
      requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  };
  // The markdown chunk first (it loads after the first paint), so the sample lays out real markdown.
  const timer = setTimeout(() => void loadMarkdown().then(start, start), delayMs);
  return () => {
    clearTimeout(timer);
    finish();
  };
}
