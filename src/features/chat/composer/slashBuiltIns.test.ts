// The built-in slash commands' dispatch: each runs what it names in the window, and what cannot be
// done now is said in a notice (`/plan` says plan mode is on). And which messages name a built-in at all.
import { describe, expect, it, vi } from "vitest";
import { PLAN_MODE_ON, runBuiltIn, type BuiltInContext, type SlashPanelState } from "./slashBuiltIns";
import { BUILT_INS, builtInOf, completed, matchSlash, slashItems, slashPrefix } from "./slashCommands";

/** Every action a mock; `openRewind` says why it cannot when given `rewindProblem`. */
function context(rewindProblem?: string) {
  return {
    newConversation: vi.fn(),
    compact: vi.fn(),
    openModelSwitch: vi.fn(),
    openRewind: vi.fn(() => rewindProblem),
    openPermissions: vi.fn(),
    planModeOn: vi.fn(),
    show: vi.fn<(panel: SlashPanelState) => void>(),
  } satisfies BuiltInContext;
}

describe("running a built-in", () => {
  it.each([
    ["clear", "newConversation"],
    ["compact", "compact"],
    ["model", "openModelSwitch"],
    ["rewind", "openRewind"],
    ["permissions", "openPermissions"],
  ] as const)("/%s calls %s and shows nothing", (name, action) => {
    const ctx = context();
    runBuiltIn(name, ctx);
    expect(ctx[action]).toHaveBeenCalledTimes(1);
    const others = (["newConversation", "compact", "openModelSwitch", "openRewind", "openPermissions", "planModeOn"] as const).filter(
      (a) => a !== action,
    );
    for (const other of others) expect(ctx[other]).not.toHaveBeenCalled();
    expect(ctx.show).not.toHaveBeenCalled();
  });

  it("/help and /cost show their panels", () => {
    const ctx = context();
    runBuiltIn("help", ctx);
    runBuiltIn("cost", ctx);
    expect(ctx.show.mock.calls).toEqual([[{ kind: "help" }], [{ kind: "cost" }]]);
  });

  it("/plan turns plan mode on and says so", () => {
    const ctx = context();
    runBuiltIn("plan", ctx);
    expect(ctx.planModeOn).toHaveBeenCalledTimes(1);
    expect(ctx.show.mock.calls).toEqual([[{ kind: "notice", text: PLAN_MODE_ON }]]);
    expect(PLAN_MODE_ON).toMatch(/^Plan mode is on: the model only reads/);
  });

  it("/plan where plan mode cannot be turned on says why instead", () => {
    const ctx = { ...context(), planModeOn: vi.fn(() => "This command is not available here.") };
    runBuiltIn("plan", ctx);
    expect(ctx.show.mock.calls).toEqual([[{ kind: "notice", text: "This command is not available here." }]]);
  });

  it("an action that cannot be done now says why in a notice", () => {
    const ctx = context("There is no message of yours to rewind to yet.");
    runBuiltIn("rewind", ctx);
    expect(ctx.show).toHaveBeenCalledWith({ kind: "notice", text: "There is no message of yours to rewind to yet." });
  });
});

describe("which message names a built-in", () => {
  it("the first word, exactly, after a slash; what follows is ignored", () => {
    expect(builtInOf("/clear")).toBe("clear");
    expect(builtInOf("  /help me  ")).toBe("help");
    expect(builtInOf("/model\nsomething")).toBe("model");
    expect(builtInOf("/Clear")).toBeNull();
    expect(builtInOf("/clearly")).toBeNull();
    expect(builtInOf("/usr/bin/env is missing")).toBeNull();
    expect(builtInOf("please /clear")).toBeNull();
    expect(builtInOf("/review the diff")).toBeNull();
  });
});

describe("the completion's list", () => {
  const found = {
    commands: [{ name: "review", description: "Review", argumentHint: "[files]", origin: "project" as const, path: "/p/review.md" }],
    skills: [
      { name: "pdf", description: "PDFs", origin: "agents" as const, path: "/h/pdf", on: true },
      { name: "release", description: "Releases", origin: "warden" as const, path: "/c/release", on: false },
    ],
    problems: [],
  };

  it("built-ins, then commands, then the skills switched on; only built-ins without a list", () => {
    expect(slashItems(found).map((i) => `${i.kind}:${i.name}`)).toEqual([
      ...BUILT_INS.map((b) => `builtin:${b.name}`),
      "command:review",
      "skill:pdf",
    ]);
    expect(slashItems(null)).toHaveLength(BUILT_INS.length);
  });

  it("is filtered by the prefix typed, whatever its case", () => {
    const items = slashItems(found);
    expect(matchSlash(items, "RE").map((i) => i.name)).toEqual(["rewind", "review"]);
    expect(matchSlash(items, "").length).toBe(items.length);
    expect(matchSlash(items, "usr/bin")).toEqual([]);
  });

  it("applies while the caret is in the first word of a text starting with a slash", () => {
    expect(slashPrefix("/re", 3)).toBe("re");
    expect(slashPrefix("/re", 1)).toBe("re");
    expect(slashPrefix("/review files", 4)).toBe("review");
    expect(slashPrefix("/review files", 9)).toBeNull();
    expect(slashPrefix("/re", 0)).toBeNull();
    expect(slashPrefix(" /re", 4)).toBeNull();
    expect(slashPrefix("re", 2)).toBeNull();
  });

  it("completing puts /name and a space, the caret after it, and keeps what followed", () => {
    expect(completed("/re", "review")).toEqual({ text: "/review ", caret: 8 });
    expect(completed("/re files", "review")).toEqual({ text: "/review files", caret: 8 });
  });
});
