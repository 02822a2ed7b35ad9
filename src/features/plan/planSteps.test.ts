// What makes a plan's steps a plan the engine takes, in words; and the edits as list operations.
import { describe, expect, it } from "vitest";
import { approvedSteps, draftSteps, moved, planProblems, withNew, without, withText } from "./planSteps";

describe("which steps can be approved", () => {
  it("1 to 50 steps, each not blank and at most 500 characters as the engine counts them", () => {
    expect(planProblems(["Read", "Change"])).toEqual([]);
    expect(planProblems([])).toEqual(["A plan needs at least one step: add one."]);
    expect(planProblems(["Read", "  "])).toEqual(["Step 2 is empty: write what it does, or remove it."]);
    expect(planProblems(["x".repeat(500)])).toEqual([]);
    expect(planProblems(["x".repeat(501)])).toEqual(["Step 1 is 501 characters long; a step has at most 500."]);
    // Characters, not UTF-16 units: 500 emoji are 1000 units and still a step.
    expect(planProblems(["😀".repeat(500)])).toEqual([]);
    // Spaces around a step are not part of it.
    expect(planProblems([` ${"x".repeat(500)} `])).toEqual([]);
    expect(planProblems(Array.from({ length: 50 }, (_, i) => `Step ${i}`))).toEqual([]);
    expect(planProblems(Array.from({ length: 51 }, (_, i) => `Step ${i}`))).toEqual([
      "A plan has at most 50 steps; this one has 51: remove some.",
    ]);
  });
});

describe("editing the steps", () => {
  const start = draftSteps(["a", "b", "c"]);

  it("changes, removes and adds by key; sends each trimmed", () => {
    expect(approvedSteps(withText(start, 1, " B "))).toEqual(["a", "B", "c"]);
    expect(approvedSteps(without(start, 0))).toEqual(["b", "c"]);
    expect(withNew(start, 7).at(-1)).toEqual({ key: 7, text: "" });
  });

  it("moves a step one place, keeping its key; not past either end", () => {
    expect(moved(start, 2, -1).map((s) => s.key)).toEqual([0, 2, 1]);
    expect(moved(start, 0, 1).map((s) => s.text)).toEqual(["b", "a", "c"]);
    expect(moved(start, 0, -1)).toBe(start);
    expect(moved(start, 2, 1)).toBe(start);
  });
});
