import { describe, expect, it } from "vitest";
import { call, change, conversation, fold, streamEnd, streamStart, userSend } from "./testEvents";
import { turnCheckpoints, turnCheckpointsFrom, turnsOf } from "./turns";

// Three turns: the first changes files in two answers, the second only reads, the third changes
// a file again.
const events = [
  userSend("u1"),
  streamStart("a1"),
  ...call("a1", "t1", { checkpointId: "cp-1", files: [change("a.txt", "modified", 2, 1), change("b.txt", "created", 4, 0)] }),
  streamEnd("a1", "tool_use"),
  streamStart("a2"),
  ...call("a2", "t2", { checkpointId: "cp-2", files: [change("a.txt", "modified", 1, 1)] }),
  ...call("a2", "t3", { checkpointId: null, files: [], error: "could not snapshot" }),
  streamEnd("a2"),
  userSend("u2"),
  streamStart("a3"),
  ...call("a3", "t4", null, "file_read"),
  streamEnd("a3"),
  userSend("u3"),
  streamStart("a4"),
  ...call("a4", "t5", { checkpointId: "cp-5", files: [change("b.txt", "deleted", 0, 4)] }),
  streamEnd("a4"),
];

describe("turns", () => {
  it("groups each user message with the answers up to the next", () => {
    const turns = turnsOf(conversation(fold(events)));
    expect(turns).toEqual([
      { userMessageId: "u1", messageIds: ["a1", "a2"] },
      { userMessageId: "u2", messageIds: ["a3"] },
      { userMessageId: "u3", messageIds: ["a4"] },
    ]);
  });

  it("sums a turn's changes over its calls and bounds its diff by checkpoints", () => {
    const [first, second, third] = turnCheckpoints(conversation(fold(events)));
    expect(first!.files.map((f) => [f.path, f.status, f.added, f.removed])).toEqual([
      ["a.txt", "modified", 3, 2],
      ["b.txt", "created", 4, 0],
    ]);
    // From before its first change to the first checkpoint of a later turn (the second took none).
    expect([first!.from, first!.to]).toEqual(["cp-1", "cp-5"]);
    expect(first!.uncovered).toBe(1);
    expect(second!.files).toEqual([]);
    expect([second!.from, second!.to]).toEqual([null, "cp-5"]);
    // The last turn's diff runs to the project as it is now.
    expect([third!.from, third!.to]).toEqual(["cp-5", null]);
  });

  it("restores to before a message: that turn's first checkpoint, else the next one after it", () => {
    const turns = turnCheckpoints(conversation(fold(events)));
    expect(turns.map((t) => t.restoreTo)).toEqual(["cp-1", "cp-5", "cp-5"]);
  });

  it("has nothing to restore to before a message when no change came after it", () => {
    const s = fold([userSend("u1"), streamStart("a1"), ...call("a1", "t1", null, "file_read"), streamEnd("a1")]);
    expect(turnCheckpoints(conversation(s)).map((t) => t.restoreTo)).toEqual([null]);
  });

  it("takes a checkpoint as soon as the call's result arrives, while the turn still runs", () => {
    const running = fold([userSend("u1"), streamStart("a1"), ...call("a1", "t1", { checkpointId: "cp-1", files: [change("x")] })]);
    expect(conversation(running).running).toBe(true);
    expect(turnCheckpoints(conversation(running))[0]).toMatchObject({ from: "cp-1", to: null, restoreTo: "cp-1" });
  });
});

describe("turnCheckpointsFrom (the mounted messages' turns)", () => {
  it("gives each turn holding a message from `start` on what turnCheckpoints gives it", () => {
    const c = conversation(fold(events));
    const all = turnCheckpoints(c);
    // Messages: u1 a1 a2 u2 a3 u3 a4. From a2 (index 2): its whole turn (from u1), then the rest.
    expect(turnCheckpointsFrom(c, 2)).toEqual(all);
    expect(turnCheckpointsFrom(c, 3)).toEqual(all.slice(1));
    expect(turnCheckpointsFrom(c, 4)).toEqual(all.slice(1));
    expect(turnCheckpointsFrom(c, 6)).toEqual(all.slice(2));
    expect(turnCheckpointsFrom(c, 0)).toEqual(all);
    expect(turnCheckpointsFrom(c, 99)).toEqual(all.slice(2));
  });
});
