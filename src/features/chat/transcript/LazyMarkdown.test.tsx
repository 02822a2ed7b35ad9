import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

describe("LazyMarkdown", () => {
  it("shows the text as written until the markdown chunk is in, then formats it", async () => {
    // A fresh copy of the module: the chunk not loaded yet, as in the window's first frames.
    vi.resetModules();
    const { Markdown } = await import("./LazyMarkdown");
    const { container } = render(<Markdown text={"**bold** and\n- an item"} />);
    const pending = container.querySelector(".markdown-pending");
    expect(pending?.textContent).toBe("**bold** and\n- an item");
    expect(container.querySelector("strong")).toBeNull();

    expect((await screen.findByText("bold")).tagName).toBe("STRONG");
    expect(container.querySelector("li")?.textContent).toBe("an item");
    expect(container.querySelector(".markdown-pending")).toBeNull();
  });

  it("renders at once when the chunk is already in", async () => {
    vi.resetModules();
    const { Markdown, loadMarkdown } = await import("./LazyMarkdown");
    await loadMarkdown();
    const { container } = render(<Markdown text="*now*" />);
    expect(container.querySelector("em")?.textContent).toBe("now");
  });
});
