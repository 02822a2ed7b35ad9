/// <reference types="vite/client" />
// The generated bindings have one importer, ipc.ts: a command's signature that changes changes one
// file, and the rest of the UI sees the engine through the names ipc.ts gives it.
import { describe, expect, it } from "vitest";

const SOURCES = import.meta.glob<string>(["../**/*.ts", "../**/*.tsx", "!../bindings.ts", "!./ipc.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
});
const IMPORTS_BINDINGS = /from\s+["'](?:\.\.?\/)+(?:\.\.\/)*bindings["']/;

describe("the bindings' one door", () => {
  it("is ipc.ts: no other file of the UI imports bindings.ts", () => {
    const files = Object.keys(SOURCES);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((path) => IMPORTS_BINDINGS.test(SOURCES[path]!))).toEqual([]);
  });
});
