import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import type { McpServerStatus } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import type { RemoteProject } from "../../remote/remoteStore";
import { RemoteMcpServers } from "./RemoteMcpServers";

const PROJECT: RemoteProject = {
  conversationId: "c-remote",
  target: "build-box:/srv/app",
  transport: null,
  host: "build-box",
  user: "dev",
  containment: "bubblewrap + seccomp",
  remoteEnvKeys: false,
};

function mock(answer: () => McpServerStatus[]) {
  const asked: unknown[] = [];
  mockIPC((cmd, args) => {
    if (cmd !== "remote_mcp_status") return null;
    asked.push(args);
    return answer();
  });
  return asked;
}

describe("RemoteMcpServers", () => {
  it("shows nothing without a linked remote project", () => {
    const { container } = render(<RemoteMcpServers projects={[]} />);
    expect(container).toBeEmptyDOMElement();
  });

  it("asks the remote session for its servers when opened, once, and shows where each stands there", async () => {
    const asked = mock(() => [
      { name: "everything", transport: "stdio", state: "connected", stderrTail: [], tools: [{ name: "echo" }, { name: "get-env" }], resources: [], prompts: [] } as unknown as McpServerStatus,
      { name: "github", transport: "stdio", state: "failed", error: "`TOKEN` names the secret `gh`, which is not in the keychain", stderrTail: [], tools: [], resources: [], prompts: [] } as unknown as McpServerStatus,
    ]);
    render(<RemoteMcpServers projects={[PROJECT]} />);
    const part = screen.getByTestId(TID.remoteMcp);
    expect(part).toHaveAttribute("data-target", "build-box:/srv/app");
    expect(part).toHaveTextContent("The servers on build-box, for build-box:/srv/app (as dev)");
    expect(asked).toEqual([]);
    await userEvent.click(screen.getByText(/The servers on build-box/));
    await waitFor(() => expect(screen.getAllByTestId(TID.remoteMcpServer)).toHaveLength(2));
    const [everything, github] = screen.getAllByTestId(TID.remoteMcpServer);
    expect(everything).toHaveAttribute("data-state", "connected");
    expect(everything).toHaveTextContent("Connected · 2 tools");
    expect(github).toHaveAttribute("data-state", "failed");
    expect(github).toHaveTextContent("which is not in the keychain");
    expect(asked).toEqual([{ conversationId: "c-remote" }]);
    // Closed and opened again: what was asked stays; the machine is not asked again.
    await userEvent.click(screen.getByText(/The servers on build-box/));
    await userEvent.click(screen.getByText(/The servers on build-box/));
    expect(asked).toHaveLength(1);
  });

  it("says why when the machine could not be asked", async () => {
    mockIPC(() => {
      throw { code: "invalid_input", message: "This remote project is not linked: link it to see its MCP servers." };
    });
    render(<RemoteMcpServers projects={[PROJECT]} />);
    await userEvent.click(screen.getByText(/The servers on build-box/));
    expect(await screen.findByText(/not linked: link it to see its MCP servers/)).toBeInTheDocument();
  });

  it("says when no server runs for the project there", async () => {
    mock(() => []);
    render(<RemoteMcpServers projects={[PROJECT]} />);
    await userEvent.click(screen.getByText(/The servers on build-box/));
    expect(await screen.findByText("No server runs for this project there.")).toBeInTheDocument();
  });

  it("offers the project's own .mcp.json read there, and the answer goes to that project", async () => {
    const chosen: unknown[] = [];
    let approved: boolean | null = null;
    mockIPC((cmd, args) => {
      if (cmd === "remote_mcp_status") return [];
      if (cmd === "remote_project_offers") {
        const mcp = {
          path: "/srv/app/.mcp.json",
          servers: { lint: { command: "npx", args: ["lint-server"] } },
          ignored: {},
          network: false,
          digest: "f00d",
          approved,
          error: null,
        };
        return { hooks: null, mcp };
      }
      if (cmd === "remote_mcp_choose") {
        chosen.push(args);
        approved = true;
        return null;
      }
      throw new Error(`unexpected command ${cmd}`);
    });
    render(<RemoteMcpServers projects={[PROJECT]} />);
    await userEvent.click(screen.getByText(/The servers on build-box/));
    const offer = await screen.findByTestId(TID.mcpProject);
    expect(offer).toHaveTextContent("on build-box, as that machine's user, from the next message there");
    await userEvent.click(screen.getByTestId(TID.mcpProjectUse));
    await waitFor(() => expect(chosen).toEqual([{ conversationId: "c-remote", digest: "f00d", approved: true }]));
    await waitFor(() => expect(screen.getByTestId(TID.mcpProject)).toHaveAttribute("data-approved", "true"));
  });
});
