import { describe, expect, it } from "vitest";
import { plainPrefixLength } from "./plainPrefix";

describe("plainPrefixLength", () => {
  it("takes a whole one-line paragraph without markup", () => {
    const s = "w0 w1 w2, (and) 3.5% - done: yes! ";
    expect(plainPrefixLength(s)).toBe(s.length);
  });

  it("cuts at the space before the word that may start markup", () => {
    for (const [s, rest] of [
      ["plain words then `code` here", "then `code` here"],
      ["see snake_case now", "snake_case now"],
      ["go to www.example.com", "www.example.com"],
      ["go to https://example.com", "https://example.com"],
      ["mail me@example.com", "me@example.com"],
      ["an ![image](x) here", "an ![image](x) here"], // the rest must start with a letter
      ["this is **bold**", "is **bold**"],
    ] as const) {
      expect(s.slice(plainPrefixLength(s))).toBe(rest);
    }
  });

  it("leaves blocks that are not a one-line paragraph to the parser", () => {
    for (const s of ["", "# Heading", "- item", "1. item", "> quote", "Title\n===", "two\nlines", "`code` first", " indented"]) {
      expect(plainPrefixLength(s)).toBe(0);
    }
  });
});
