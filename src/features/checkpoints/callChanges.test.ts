import { describe, expect, it } from "vitest";
import type { FileChange } from "../../shared/ipc";
import { callChangesOf, sumChanges, totalsOf } from "./callChanges";

const file = (path: string, status: FileChange["status"], added: number | null = 1, removed: number | null = 0): FileChange => ({
  path,
  status,
  added,
  removed,
  binary: added === null,
  oldMode: status === "created" ? null : "100644",
  newMode: status === "deleted" ? null : "100644",
});

describe("callChangesOf", () => {
  it("reads the engine's metadata.changes beside the tool's own metadata", () => {
    const metadata = {
      exit_code: 0,
      changes: { checkpointId: "abc123def456", files: [file("a.txt", "modified", 2, 1)] },
    };
    expect(callChangesOf(metadata)).toEqual({ checkpointId: "abc123def456", files: [file("a.txt", "modified", 2, 1)], error: null });
  });

  it("says when no checkpoint covers the change", () => {
    const c = callChangesOf({ changes: { checkpointId: null, files: [], error: "git failed" } });
    expect(c).toEqual({ checkpointId: null, files: [], error: "git failed" });
  });

  it("is null for calls without changes and skips entries that are not file changes", () => {
    expect(callChangesOf(null)).toBeNull();
    expect(callChangesOf({ sha256: "ab" })).toBeNull();
    expect(callChangesOf([1, 2])).toBeNull();
    const c = callChangesOf({ changes: { checkpointId: "c1", files: [{ path: "x", status: "renamed" }, "junk", file("y", "created")] } });
    expect(c?.files.map((f) => f.path)).toEqual(["y"]);
  });
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
