// Issue 36: a long diff in the approval card is read with the keyboard. The card takes the focus on
// arrival (its PageDown scrolls the card, not the diff inside it), so the diff's own scroll box
// must take the focus too, named, and be the first stop Tab reaches from the card.
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { ToolConfirm } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { makeConfirm } from "../../test/builders";
import { ApprovalDialog } from "./ApprovalDialog";

function show(confirm: ToolConfirm) {
  return render(
    <ApprovalDialog
      pending={{ confirmId: confirm.confirmId, toolId: confirm.toolId, conversationId: confirm.conversationId, request: confirm, receivedAt: Date.now() }}
      position={1}
      total={1}
      onAnswer={vi.fn()}
      onExpire={vi.fn()}
    />,
  );
}

const LINES = Array.from({ length: 200 }, (_, i) => `+line ${i + 1}`).join("\n");

describe("a long diff in the approval card", () => {
  it("is a named scroll box that Tab reaches first from the card", async () => {
    const path = "notes/long.txt";
    show(
      makeConfirm({
        toolName: "file_write",
        input: { path, content: "…" },
        preview: { kind: "diff", path, diff: `--- a\n+++ b\n@@ -0,0 +1,200 @@\n${LINES}\n` },
      }),
    );
    expect(screen.getByTestId(TID.approvalDialog)).toHaveFocus();
    await userEvent.tab();
    const box = screen.getByRole("region", { name: "Changes to notes/long.txt" });
    expect(box).toBe(screen.getByTestId(TID.diffView));
    expect(box).toHaveFocus();
  });

  it("keeps Esc on the diff's box rejecting the call", async () => {
    const onAnswer = vi.fn();
    const confirm = makeConfirm({ toolName: "file_write", input: { path: "a.txt" }, preview: { kind: "diff", path: "a.txt", diff: "@@ -1 +1 @@\n-a\n+b\n" } });
    render(
      <ApprovalDialog
        pending={{ confirmId: confirm.confirmId, toolId: confirm.toolId, conversationId: confirm.conversationId, request: confirm, receivedAt: Date.now() }}
        position={1}
        total={1}
        onAnswer={onAnswer}
        onExpire={vi.fn()}
      />,
    );
    await userEvent.tab();
    expect(screen.getByTestId(TID.diffView)).toHaveFocus();
    await userEvent.keyboard("{Escape}");
    expect(onAnswer).toHaveBeenCalledWith(expect.objectContaining({ approved: false }));
  });
});
