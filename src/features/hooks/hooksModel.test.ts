import { describe, expect, it } from "vitest";
import type { HooksConfig } from "../../shared/ipc";
import { hookEntries, mergeHooks, readImport, withHook, withoutHook } from "./hooksModel";

const cmd = (command: string) => ({ type: "command", command });

const CONFIG: HooksConfig = {
  Stop: [{ hooks: [cmd("stop.sh")] }],
  PreToolUse: [
    { matcher: "Bash", hooks: [cmd("a.sh"), cmd("b.sh")] },
    { matcher: "Edit", hooks: [cmd("c.sh")] },
  ],
};

describe("the user's hooks as Settings edit them", () => {
  it("lists them flat, events in the order a turn meets them", () => {
    expect(hookEntries(CONFIG).map((e) => [e.event, e.matcher, e.hook.command, e.at.group, e.at.index])).toEqual([
      ["PreToolUse", "Bash", "a.sh", 0, 0],
      ["PreToolUse", "Bash", "b.sh", 0, 1],
      ["PreToolUse", "Edit", "c.sh", 1, 0],
      ["Stop", "", "stop.sh", 0, 0],
    ]);
  });

  it("edits a hook in its place, and moves it to a group of its own when its matcher changes", () => {
    const at = { event: "PreToolUse", group: 0, index: 1 };
    expect(withHook(CONFIG, at, { event: "PreToolUse", matcher: "Bash", hook: cmd("B.sh") }).PreToolUse).toEqual([
      { matcher: "Bash", hooks: [cmd("a.sh"), cmd("B.sh")] },
      { matcher: "Edit", hooks: [cmd("c.sh")] },
    ]);
    expect(withHook(CONFIG, at, { event: "PreToolUse", matcher: "Write", hook: cmd("b.sh") }).PreToolUse).toEqual([
      { matcher: "Bash", hooks: [cmd("a.sh")] },
      { matcher: "Edit", hooks: [cmd("c.sh")] },
      { matcher: "Write", hooks: [cmd("b.sh")] },
    ]);
  });

  it("removes a hook, and its group and event once empty", () => {
    expect(withoutHook(CONFIG, { event: "Stop", group: 0, index: 0 })).toEqual({ PreToolUse: CONFIG.PreToolUse });
    expect(withoutHook(CONFIG, { event: "PreToolUse", group: 1, index: 0 }).PreToolUse).toEqual([CONFIG.PreToolUse![0]]);
  });

  it("adds imported hooks after the user's, an identical group once", () => {
    const merged = mergeHooks(CONFIG, { Stop: [{ hooks: [cmd("stop.sh")] }, { hooks: [cmd("more.sh")] }] });
    expect(merged.Stop).toEqual([{ hooks: [cmd("stop.sh")] }, { hooks: [cmd("more.sh")] }]);
  });

  it("reads Claude Code's hooks object or a settings.json holding one, and says what is wrong otherwise", () => {
    const hooks = { Stop: [{ hooks: [cmd("x")] }] };
    expect(readImport(JSON.stringify({ hooks, permissions: {} }))).toEqual({ hooks });
    expect(readImport(JSON.stringify(hooks))).toEqual({ hooks });
    expect(readImport("{nope")).toHaveProperty("error", expect.stringContaining("This is not JSON"));
    expect(readImport("[]")).toHaveProperty("error", expect.stringContaining("Expected a JSON object"));
    expect(readImport("{}")).toEqual({ error: "It names no hooks." });
    expect(readImport('{"Stop": [{"hooks": [{"type": "command"}]}]}')).toHaveProperty("error", expect.stringContaining("no `command`"));
    expect(readImport('{"Stop": [{"hooks": [{"command": "x", "timeout": "soon"}]}]}')).toHaveProperty(
      "error",
      expect.stringContaining("not a number of seconds"),
    );
  });
});
