// Settings → Model prices: the defaults with their date, the user's prices over them, add / reset /
// remove, and what is refused with why. The section is driven as SettingsPanel drives it (the draft
// it edits comes back as its settings).
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { beforeEach, describe, expect, it } from "vitest";
import type { Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { DEFAULT_PRICES } from "../cost/defaultPrices";
import { pricesAsOf } from "../cost/prices";
import { PricesSection } from "./PricesSection";

let saved: Settings["modelPrices"][];

beforeEach(() => {
  saved = [];
});

function Harness({ initial = {} }: { initial?: Settings["modelPrices"] }) {
  const [settings, setSettings] = useState<Settings>({ modelPrices: initial });
  return (
    <PricesSection
      settings={settings}
      onChange={(s) => {
        saved.push(s.modelPrices);
        setSettings(s);
      }}
    />
  );
}

const row = (model: string) => screen.getAllByTestId(TID.priceRow).find((r) => r.getAttribute("data-model") === model)!;
const last = () => saved[saved.length - 1];

describe("Settings → Model prices", () => {
  it("lists every default with the day its prices were checked", () => {
    render(<Harness />);
    expect(screen.getAllByTestId(TID.priceRow)).toHaveLength(Object.keys(DEFAULT_PRICES).length);
    const sonnet = row("claude-sonnet-4-5");
    expect(sonnet).toHaveAttribute("data-source", "default");
    expect(within(sonnet).getByTestId(TID.priceInput)).toHaveValue("3");
    expect(within(sonnet).getByTestId(TID.priceOutput)).toHaveValue("15");
    expect(sonnet).toHaveTextContent(pricesAsOf());
    expect(screen.getByTestId(TID.pricesSection)).toHaveTextContent(`Warden's own are ${pricesAsOf()}`);
    expect(screen.queryByTestId(TID.pricesResetAll)).toBeNull();
  });

  it("keeps a changed default as the user's price, and Reset puts the default back", async () => {
    render(<Harness />);
    const input = within(row("gpt-5")).getByTestId(TID.priceInput);
    await userEvent.clear(input);
    await userEvent.type(input, "2.5");
    expect(last()).toEqual({ "gpt-5": { input: 2.5, output: 10 } });
    expect(row("gpt-5")).toHaveAttribute("data-source", "user");
    expect(row("gpt-5")).toHaveTextContent("your price (default $1.25 / $10)");
    await userEvent.click(within(row("gpt-5")).getByTestId(TID.priceReset));
    expect(last()).toEqual({});
    expect(row("gpt-5")).toHaveAttribute("data-source", "default");
    expect(within(row("gpt-5")).getByTestId(TID.priceInput)).toHaveValue("1.25");
  });

  it("refuses an amount that is no price, says why, and saves nothing of it", async () => {
    render(<Harness />);
    const output = within(row("o3")).getByTestId(TID.priceOutput);
    await userEvent.clear(output);
    expect(within(row("o3")).getByRole("alert")).toHaveTextContent("Give a price");
    await userEvent.type(output, "-1");
    expect(output).toHaveAttribute("aria-invalid", "true");
    expect(within(row("o3")).getByRole("alert")).toHaveTextContent("a number of dollars, 0 or more");
    await userEvent.clear(output);
    await userEvent.type(output, "abc");
    expect(within(row("o3")).getByRole("alert")).toBeInTheDocument();
    expect(saved).toEqual([]);
    await userEvent.clear(output);
    await userEvent.type(output, "0");
    expect(last()).toEqual({ o3: { input: 2, output: 0 } });
    expect(within(row("o3")).queryByRole("alert")).toBeNull();
  });

  it("adds a price for a model the table does not list, and refuses a blank, spaced or listed one", async () => {
    render(<Harness />);
    const add = async (model: string, input: string, output: string) => {
      for (const [id, text] of [[TID.priceAddModel, model], [TID.priceAddInput, input], [TID.priceAddOutput, output]] as const) {
        await userEvent.clear(screen.getByTestId(id));
        if (text) await userEvent.type(screen.getByTestId(id), text);
      }
      await userEvent.click(screen.getByTestId(TID.priceAdd));
    };
    await add("", "1", "2");
    expect(screen.getByTestId(TID.priceAddError)).toHaveTextContent("Give the model");
    await add("my model", "1", "2");
    expect(screen.getByTestId(TID.priceAddError)).toHaveTextContent("no spaces");
    await add("GPT-5", "1", "2");
    expect(screen.getByTestId(TID.priceAddError)).toHaveTextContent("gpt-5 is in the table already");
    await add("deepseek-chat", "-3", "2");
    expect(screen.getByTestId(TID.priceAddError)).toHaveTextContent("Input: A price is a number of dollars");
    await add("m".repeat(101), "1", "1");
    expect(screen.getByTestId(TID.priceAddError)).toHaveTextContent("at most 100 characters");
    expect(saved).toEqual([]);

    await add("DeepSeek-Chat", "0.28", "0.42");
    expect(last()).toEqual({ "deepseek-chat": { input: 0.28, output: 0.42 } });
    expect(screen.queryByTestId(TID.priceAddError)).toBeNull();
    expect(screen.getByTestId(TID.priceAddModel)).toHaveValue("");
    expect(row("deepseek-chat")).toHaveTextContent("your price");
    await userEvent.click(within(row("deepseek-chat")).getByTestId(TID.priceRemove));
    expect(last()).toEqual({});
    expect(screen.getAllByTestId(TID.priceRow).some((r) => r.getAttribute("data-model") === "deepseek-chat")).toBe(false);
  });

  it("shows the user's saved prices, a wrong one with why, and forgets them all on request", async () => {
    render(<Harness initial={{ "gpt-5": { input: 3, output: 30 }, "my-local": { input: -1, output: 0 } }} />);
    expect(within(row("gpt-5")).getByTestId(TID.priceInput)).toHaveValue("3");
    expect(row("my-local")).toHaveAttribute("data-source", "user");
    expect(within(row("my-local")).getByRole("alert")).toHaveTextContent("0 or more");
    await userEvent.click(screen.getByTestId(TID.pricesResetAll));
    expect(last()).toEqual({});
    expect(within(row("gpt-5")).getByTestId(TID.priceInput)).toHaveValue("1.25");
  });
});
