import { describe, expect, it } from "vitest";
import { broadAllow, originWords, patternMeaning, tryInput } from "./rulesModel";

describe("broadAllow", () => {
  it("warns for an allow rule broader than one program prefix", () => {
    for (const [tool, pattern] of [
      ["bash", null],
      ["bash", "*"],
      ["bash", "rm *"],
      ["bash", "curl *"],
      ["bash", "sudo *"],
      ["bash", "/usr/bin/rm -rf *"],
      ["write", null],
      ["write", "**"],
      ["read", ""],
    ] as const) {
      expect(broadAllow({ effect: "allow", tool, pattern }), `${tool} ${pattern}`).not.toBeNull();
    }
  });

  it("stays quiet for narrow rules and for ask or deny", () => {
    for (const [tool, pattern] of [
      ["bash", "cargo test *"],
      ["bash", "rm build/out.txt"],
      ["bash", "@read-only"],
      ["write", "src/**"],
      ["mcp__db__query", null],
    ] as const) {
      expect(broadAllow({ effect: "allow", tool, pattern }), `${tool} ${pattern}`).toBeNull();
    }
    expect(broadAllow({ effect: "deny", tool: "bash", pattern: "rm *" })).toBeNull();
    expect(broadAllow({ effect: "ask", tool: "bash", pattern: null })).toBeNull();
  });
});

describe("patternMeaning", () => {
  it("says what @read-only covers, for bash only", () => {
    expect(patternMeaning("bash", "@read-only")).toContain("every command that only reads");
    expect(patternMeaning("bash", "cargo test *")).toBeNull();
    expect(patternMeaning("write", "@read-only")).toBeNull();
  });
});

describe("tryInput", () => {
  it("builds the input each tool takes", () => {
    expect(tryInput("bash", "git push")).toEqual({ command: "git push" });
    expect(tryInput("write", "src/a.rs")).toEqual({ path: "src/a.rs", content: "" });
    expect(tryInput("file_write", "a")).toEqual({ path: "a", content: "" });
    expect(tryInput("read", "a")).toEqual({ path: "a" });
    expect(tryInput("file_read", "a")).toEqual({ path: "a" });
    expect(tryInput("mcp__db__query", '{"sql":"select 1"}')).toEqual({ sql: "select 1" });
    expect(() => tryInput("web_search", "{nope")).toThrow(/not JSON/);
  });
});

describe("originWords", () => {
  it("says how a rule came to be", () => {
    expect(originWords({ kind: "card" })).toBe("saved from an approval");
    expect(originWords({ kind: "typed" })).toBe("typed");
    expect(originWords({ kind: "imported", from: "~/.claude/settings.json" })).toBe("imported from ~/.claude/settings.json");
    expect(originWords(undefined)).toBeNull();
  });
});
