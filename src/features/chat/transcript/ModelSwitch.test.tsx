// The model menu beside the composer names the model that answers from the first moment — not
// "Default model", and not "Loading models…" while the provider's list is being fetched behind it.
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import type { ModelEntry, ProviderId } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { ModelSwitch } from "./ModelSwitch";

const entry = (id: string, displayName: string | null = null): ModelEntry => ({
  id,
  displayName,
  supportsTools: null,
  contextWindow: null,
});

/** The provider's list, answered when `answer` is called (never, if it is not). */
function listLater() {
  let answer: (models: ModelEntry[]) => void = () => {};
  const asked: string[] = [];
  mockIPC((cmd, args) => {
    if (cmd !== "provider_models") throw new Error(`unexpected command ${cmd}`);
    asked.push(String((args as { provider: string }).provider));
    return new Promise<ModelEntry[]>((resolve) => (answer = resolve));
  });
  return { asked, answer: (models: ModelEntry[]) => answer(models) };
}

function renderSwitch(provider: ProviderId, model: string | null, inUse?: string | null) {
  const choice = { provider, model, onChange: async () => {} };
  render(<ModelSwitch choice={choice} disabled={false} inUse={inUse} />);
  return screen.getByTestId(TID.modelSwitch);
}

describe("ModelSwitch", () => {
  it("names the provider's default model at once, before the list has loaded", () => {
    listLater();
    const menu = renderSwitch("anthropic", null);
    expect(menu).toHaveValue("");
    expect(menu).not.toHaveDisplayValue("Default model");
    expect(menu).toHaveDisplayValue("claude-sonnet-4-5 (default)");
  });

  it("names the configured model at once", () => {
    listLater();
    expect(renderSwitch("ollama", "qwen2.5:7b")).toHaveDisplayValue("qwen2.5:7b");
  });

  it("keeps the name while the list loads behind it on the first open, then offers the list", async () => {
    const list = listLater();
    const menu = renderSwitch("anthropic", null);
    fireEvent.mouseDown(menu);
    fireEvent.focus(menu);
    await waitFor(() => expect(list.asked).toEqual(["anthropic"]));
    expect(menu).toHaveDisplayValue("claude-sonnet-4-5 (default)");
    const loading = screen.getByRole("option", { name: "Loading models…" });
    expect(loading).toBeDisabled();

    list.answer([entry("claude-sonnet-4-5", "Claude Sonnet 4.5"), entry("claude-opus-4", "Claude Opus 4")]);
    await waitFor(() => expect(screen.queryByRole("option", { name: "Loading models…" })).toBeNull());
    expect(menu).toHaveDisplayValue("Claude Sonnet 4.5 (default)");
    expect(screen.getByRole("option", { name: "Claude Opus 4" })).toBeInTheDocument();
  });

  it("for a server of one's own, names the model that answered in this conversation", () => {
    listLater();
    expect(renderSwitch("openai_compatible", null, "qwen2.5-7b-instruct")).toHaveDisplayValue("qwen2.5-7b-instruct (default)");
  });

  it("for a server of one's own not asked yet, says it is the server's model", () => {
    listLater();
    expect(renderSwitch("openai_compatible", null)).toHaveDisplayValue("The server's model");
  });
});
