import { fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { TID } from "../../../shared/testids";
import { DiffView, DIFF_ROW_CAP } from "./DiffView";
import { JsonView } from "./JsonView";
import { CappedPre, TEXT_VIEW_CAP } from "./ShowMore";

describe("capped views", () => {
  it("a 2 MB text shows its first part and grows on request", () => {
    const text = "x".repeat(2_000_000);
    render(<CappedPre className="plain-output" testId={TID.plainOutput} text={text} />);
    expect(screen.getByTestId(TID.plainOutput).textContent).toHaveLength(TEXT_VIEW_CAP);
    const more = screen.getByTestId(TID.showMore);
    expect(more).toHaveTextContent(`${(2_000_000 - TEXT_VIEW_CAP).toLocaleString()} more characters`);
    fireEvent.click(more);
    expect(screen.getByTestId(TID.plainOutput).textContent).toHaveLength(2 * TEXT_VIEW_CAP);
  });

  it("a short text shows whole, without a button", () => {
    render(<CappedPre className="plain-output" testId={TID.plainOutput} text="short" />);
    expect(screen.getByTestId(TID.plainOutput)).toHaveTextContent("short");
    expect(screen.queryByTestId(TID.showMore)).toBeNull();
  });

  it("a 10,000-line diff mounts a page of rows and counts every line", () => {
    const body = Array.from({ length: 10_000 }, (_, i) => `+line ${i}`).join("\n");
    const diff = `--- a/big.txt\n+++ b/big.txt\n@@ -0,0 +1,10000 @@\n${body}\n`;
    const { container } = render(<DiffView diff={diff} path="big.txt" />);
    expect(container.querySelectorAll("tr")).toHaveLength(DIFF_ROW_CAP);
    expect(screen.getByTestId(TID.diffView)).toHaveTextContent("+10000");
    fireEvent.click(screen.getByTestId(TID.showMore));
    expect(container.querySelectorAll("tr")).toHaveLength(2 * DIFF_ROW_CAP);
    // What it proves is the cap, not a speed: parsing 10,000 lines under jsdom takes seconds on a
    // loaded 2-core machine, past vitest's 5 s default.
  }, 30_000);

  it("huge JSON metadata is capped too", () => {
    const value = { rows: Array.from({ length: 20_000 }, (_, i) => ({ i, text: "some text" })) };
    render(<JsonView value={value} />);
    expect(screen.getByTestId(TID.jsonView).textContent!.length).toBe(TEXT_VIEW_CAP);
    expect(screen.getByTestId(TID.showMore)).toBeTruthy();
  });
});
