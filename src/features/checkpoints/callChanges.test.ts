import { describe, expect, it } from "vitest";
import type { FileChange } from "../../shared/ipc";
import { sumChanges, totalsOf } from "./callChanges";

const file = (path: string, status: FileChange["status"], added: number | null = 1, removed: number | null = 0): FileChange => ({
  path,
  status,
  added,
  removed,
  binary: added === null,
  oldMode: status === "created" ? null : "100644",
  newMode: status === "deleted" ? null : "100644",
});

describe("sumChanges", () => {
  it("sums lines per file over the calls, in the order files were first touched", () => {
    const sum = sumChanges([[file("b", "modified", 3, 1), file("a", "created", 5, 0)], [file("b", "modified", 2, 2)]]);
    expect(sum.map((f) => [f.path, f.status, f.added, f.removed])).toEqual([
      ["b", "modified", 5, 3],
      ["a", "created", 5, 0],
    ]);
    expect(totalsOf(sum)).toEqual({ files: 2, added: 10, removed: 3 });
  });

  it("takes the status from before the first call and after the last", () => {
    const sum = sumChanges([
      [file("made-then-edited", "created"), file("edited-then-removed", "modified"), file("removed-then-made", "deleted")],
      [file("made-then-edited", "modified"), file("edited-then-removed", "deleted"), file("removed-then-made", "created")],
    ]);
    expect(sum.map((f) => [f.path, f.status])).toEqual([
      ["made-then-edited", "created"],
      ["edited-then-removed", "deleted"],
      ["removed-then-made", "modified"],
    ]);
  });

  it("leaves out a file made and removed again, and counts no lines for a binary one", () => {
    const sum = sumChanges([[file("tmp", "created"), file("img.png", "modified", null, null)], [file("tmp", "deleted"), file("img.png", "modified", 1, 1)]]);
    expect(sum.map((f) => f.path)).toEqual(["img.png"]);
    expect(sum[0]).toMatchObject({ binary: true, added: null, removed: null });
  });
});
