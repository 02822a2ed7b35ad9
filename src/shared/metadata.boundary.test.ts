/// <reference types="vite/client" />
// The window renders a tool result from its typed report; the open `metadata` bag is shown whole
// (as JSON, for a tool without a view) and never read by key, so nothing in the UI guesses at it.
import { describe, expect, it } from "vitest";

const SOURCES = import.meta.glob<string>(["../**/*.ts", "../**/*.tsx", "!../bindings.ts", "!../**/*.test.ts", "!../**/*.test.tsx"], {
  query: "?raw",
  import: "default",
  eager: true,
});
/** `metadata["x"]`, `metadata.x`, `metadata?.x`, and a destructuring `{ x } = metadata`. */
const READS_A_KEY = /metadata(?:\?\.|\.|\[)\s*["'\w]|\}\s*=\s*(?:\w+\.)?metadata\b/;

describe("a tool result's metadata", () => {
  it("is never read by key in the UI", () => {
    const files = Object.keys(SOURCES);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((path) => READS_A_KEY.test(SOURCES[path]!))).toEqual([]);
  });
});
