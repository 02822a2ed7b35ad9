import { describe, expect, it } from "vitest";
import type { RestoreReport } from "../../shared/ipc";
import { idle, restoreFlow, type RestoreEvent, type RestoreFlow } from "./restoreFlow";

const report: RestoreReport = { restored: "cp-1", undoCheckpointId: "undo-1", files: [] };
const run = (events: RestoreEvent[], from: RestoreFlow = idle) => events.reduce(restoreFlow, from);

describe("restoreFlow", () => {
  it("restores, then undoes the restore it keeps", () => {
    const restored = run([{ type: "start", action: "restore", force: false }, { type: "done", report }]);
    expect(restored).toEqual({ phase: "restored", report });
    const undoing = run([{ type: "start", action: "undo", force: false }], restored);
    expect(undoing).toEqual({ phase: "working", action: "undo", force: false, report });
    const undone = run([{ type: "done", report: { restored: "undo-1", undoCheckpointId: "undo-2", files: [] } }], undoing);
    expect(undone).toEqual({ phase: "undone", report });
  });

  it("names the files changed outside Warden and lets the user insist", () => {
    const refused = run([
      { type: "start", action: "restore", force: false },
      { type: "refused", paths: ["a.txt"], message: "changed outside" },
    ]);
    expect(refused).toMatchObject({ phase: "refused", action: "restore", paths: ["a.txt"] });
    const forced = run([{ type: "start", action: "restore", force: true }, { type: "done", report }], refused);
    expect(forced).toEqual({ phase: "restored", report });
  });

  it("keeps the restore to undo when its undo is refused or fails", () => {
    const restored: RestoreFlow = { phase: "restored", report };
    const refused = run([{ type: "start", action: "undo", force: false }, { type: "refused", paths: ["b.txt"], message: "m" }], restored);
    expect(refused).toMatchObject({ phase: "refused", action: "undo", report });
    const failed = run([{ type: "start", action: "undo", force: true }, { type: "failed", message: "A turn is running" }], refused);
    expect(failed).toMatchObject({ phase: "failed", action: "undo", report });
    expect(run([{ type: "start", action: "undo", force: false }, { type: "done", report }], failed)).toEqual({ phase: "undone", report });
  });

  it("ignores what does not fit: an undo with nothing restored, a second start, a late answer", () => {
    expect(run([{ type: "start", action: "undo", force: false }])).toBe(idle);
    const working = run([{ type: "start", action: "restore", force: false }]);
    expect(run([{ type: "start", action: "restore", force: true }], working)).toBe(working);
    expect(run([{ type: "dismiss" }], working)).toBe(working);
    expect(run([{ type: "done", report }])).toBe(idle);
    expect(run([{ type: "dismiss" }], { phase: "restored", report })).toBe(idle);
  });

  it("shows the plan first: runs only on a yes, and a cancelled undo keeps the restore", () => {
    const plan = { files: [], running: [] };
    const confirming = run([{ type: "plan", action: "restore" }, { type: "planned", plan }]);
    expect(confirming).toEqual({ phase: "confirming", action: "restore", plan, report: null });
    expect(run([{ type: "dismiss" }], confirming)).toBe(idle);
    const restored: RestoreFlow = { phase: "restored", report };
    const askingUndo = run([{ type: "plan", action: "undo" }, { type: "planned", plan }], restored);
    expect(askingUndo).toMatchObject({ phase: "confirming", action: "undo", report });
    expect(run([{ type: "dismiss" }], askingUndo)).toEqual(restored);
    expect(run([{ type: "plan", action: "restore" }, { type: "failed", message: "no store" }])).toMatchObject({ phase: "failed" });
  });
});
