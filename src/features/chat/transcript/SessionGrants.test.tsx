// The conversation's session grants as the user meets them: listed from the engine, revoked one by
// one through the real command names and argument shapes.
import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import type { SessionGrant } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { SessionGrants } from "./SessionGrants";

function setup(grants: SessionGrant[], revoke: (args: Record<string, unknown>) => unknown = () => null) {
  const calls: { cmd: string; args: Record<string, unknown> }[] = [];
  mockIPC((cmd, args) => {
    const a = (args ?? {}) as Record<string, unknown>;
    calls.push({ cmd, args: a });
    if (cmd === "chat_grants") return grants;
    if (cmd === "chat_grant_revoke") return revoke(a);
    throw new Error(`unexpected command ${cmd}`);
  });
  return calls;
}

describe("SessionGrants", () => {
  it("shows nothing when the conversation has no grant", async () => {
    const calls = setup([]);
    render(<SessionGrants conversationId="c1" running={false} pending={0} />);
    await waitFor(() => expect(calls.map((c) => c.cmd)).toContain("chat_grants"));
    expect(screen.queryByTestId(TID.sessionGrants)).toBeNull();
  });

  it("lists each grant and revokes the one chosen, which then asks again", async () => {
    const grants: SessionGrant[] = [
      { kind: "tool", name: "file_write" },
      { kind: "bashPrefix", prefix: "cargo test" },
    ];
    const calls = setup(grants);
    render(<SessionGrants conversationId="c1" running={false} pending={0} />);
    const shown = await screen.findAllByTestId(TID.sessionGrant);
    expect(shown.map((g) => g.textContent)).toEqual(["file_writeAsk again", "cargo test …Ask again"]);
    await userEvent.click(screen.getByRole("button", { name: "Ask again before commands starting cargo test" }));
    await waitFor(() => expect(screen.getAllByTestId(TID.sessionGrant)).toHaveLength(1));
    const revoked = calls.find((c) => c.cmd === "chat_grant_revoke");
    expect(revoked?.args).toEqual({ conversationId: "c1", grant: { kind: "bashPrefix", prefix: "cargo test" } });
    expect(screen.getByTestId(TID.sessionGrant)).toHaveAttribute("data-kind", "tool");
  });

  it("keeps the grant and says why when the engine refuses the revoke", async () => {
    setup([{ kind: "tool", name: "bash" }], () => {
      throw { code: "INVALID_INPUT", message: "This conversation has no such permission." };
    });
    render(<SessionGrants conversationId="c1" running={false} pending={0} />);
    await userEvent.click(await screen.findByTestId(TID.revokeGrant));
    expect(await screen.findByRole("alert")).toHaveTextContent("no such permission");
    expect(screen.getAllByTestId(TID.sessionGrant)).toHaveLength(1);
  });
});
