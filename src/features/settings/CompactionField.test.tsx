// Settings → Limits → "Compact the conversation when the context is [85] % full", in the real
// Settings panel (saved as it changes); only the Tauri IPC is mocked.
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { mockIPC } from "@tauri-apps/api/mocks";
import { beforeEach, describe, expect, it } from "vitest";
import type { Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { SettingsPanel } from "./SettingsPanel";

let calls: { cmd: string; args: Record<string, unknown> }[];

beforeEach(() => {
  calls = [];
  const handlers: Record<string, () => unknown> = {
    keys_status: () => [],
    settings_set: () => null,
    settings_integrity: () => ({ trusted: true, problem: null }),
    sandbox_status: () => ({ contained: true, mechanism: "bubblewrap + seccomp", writable: [], caches: [], hidden: [] }),
    provider_models: () => [],
    tools_catalog: () => [],
    mcp_status: () => [],
    mcp_project_offer: () => null,
    instructions_in_use: () => ({ files: [], global: false }),
    rules_list: () => [],
  };
  mockIPC((cmd, args) => {
    calls.push({ cmd, args: (args ?? {}) as Record<string, unknown> });
    const h = handlers[cmd];
    if (!h) throw new Error(`unexpected command ${cmd}`);
    return h();
  });
});

const SETTINGS: Settings = {
  trustLevel: "guided",
  activeProvider: "anthropic",
  providers: {},
  projectDir: null,
  toolPermissions: {},
  approvalTimeoutSecs: 30,
  searxngUrl: "http://localhost:8080",
};

function renderPanel(initial: Settings = SETTINGS) {
  return render(<SettingsPanel initial={initial} keys={[]} onSaved={() => {}} onKeysChanged={() => {}} onClose={() => {}} />);
}

const settled = () =>
  waitFor(() => expect(screen.getByTestId(TID.settingsSaved)).toHaveTextContent("Saved ✓"), { timeout: 3000 });
const saved = () => calls.filter((c) => c.cmd === "settings_set").map((c) => (c.args.settings as Settings).compactAtPercent);

describe("the compaction setting", () => {
  it("reads as a sentence with the engine's default, and says what compaction does", () => {
    renderPanel();
    const field = screen.getByTestId(TID.compactAtPercent);
    expect(field).toHaveValue(85);
    expect(field.closest("label")).toHaveTextContent("Compact the conversation when the context is % full");
    expect(field).toHaveAccessibleDescription("The model is sent a summary of the older messages; you keep the whole history.");
  });

  it("saves a value in range as it is typed", async () => {
    renderPanel({ ...SETTINGS, compactAtPercent: 85 });
    const field = screen.getByTestId(TID.compactAtPercent);
    await userEvent.clear(field);
    await userEvent.type(field, "70");
    await settled();
    expect(saved()).toEqual([70]);
  });

  it("holds what is typed to 50–95 when the field is left, and saves that", async () => {
    renderPanel({ ...SETTINGS, compactAtPercent: 85 });
    const field = screen.getByTestId(TID.compactAtPercent);
    await userEvent.clear(field);
    await userEvent.type(field, "99");
    expect(screen.getByText("From 50 to 95 %.")).toBeVisible();
    await userEvent.tab();
    expect(field).toHaveValue(95);
    await settled();
    expect(saved()).toEqual([95]);

    await userEvent.clear(field);
    await userEvent.type(field, "20{Enter}");
    expect(field).toHaveValue(50);
    await settled();
    expect(saved().at(-1)).toBe(50);

    // A fraction is rounded; an emptied field goes back to what is saved.
    fireEvent.change(field, { target: { value: "72.6" } });
    fireEvent.blur(field);
    expect(field).toHaveValue(73);
    await settled();
    expect(saved().at(-1)).toBe(73);
    await userEvent.clear(field);
    await userEvent.tab();
    expect(field).toHaveValue(73);
  });

  it("shows a value outside the range from the file as the engine uses it", () => {
    renderPanel({ ...SETTINGS, compactAtPercent: 120 });
    expect(screen.getByTestId(TID.compactAtPercent)).toHaveValue(95);
  });
});
