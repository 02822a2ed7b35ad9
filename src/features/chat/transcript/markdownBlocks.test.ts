import { describe, expect, it } from "vitest";
import { splitMarkdownBlocks } from "./markdownBlocks";

describe("splitMarkdownBlocks", () => {
  it("splits paragraphs at blank lines", () => {
    expect(splitMarkdownBlocks("# Title\n\nOne.\nStill one.\n\n\nTwo.")).toEqual(["# Title", "One.\nStill one.", "Two."]);
  });

  it("keeps a fenced code block with blank lines whole, even while it is still open", () => {
    expect(splitMarkdownBlocks("Before\n\n```rust\nfn a() {}\n\nfn b() {}\n```\n\nAfter")).toEqual([
      "Before",
      "```rust\nfn a() {}\n\nfn b() {}\n```",
      "After",
    ]);
    expect(splitMarkdownBlocks("```\na\n\nb")).toEqual(["```\na\n\nb"]);
  });

  it("keeps a loose list and its indented paragraphs together", () => {
    expect(splitMarkdownBlocks("1. one\n\n2. two\n\n   more on two\n\nAfter")).toEqual(["1. one\n\n2. two\n\n   more on two", "After"]);
  });

  it("joins back to the same rendered content", () => {
    const text = "a\n\nb\n\n- x\n\n- y";
    expect(splitMarkdownBlocks(text).join("\n\n")).toBe(text);
  });
});

describe("splitMarkdownBlocks with indented code", () => {
  it("keeps indented code with blank lines in one block", () => {
    expect(splitMarkdownBlocks("Code:\n\n    a\n\n    b\n\nEnd")).toEqual(["Code:", "    a\n\n    b", "End"]);
  });
});
