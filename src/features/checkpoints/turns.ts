// A conversation as turns (a user message and the answers up to the next one) and, for each, what
// its tool calls changed and which checkpoints bound it: the diff of a turn runs from the
// checkpoint before its first change to the first checkpoint of a later turn (or the project as
// it is now), and "restore to before this message" goes to the first checkpoint at or after it.
import type { CallChanges, FileChange } from "../../shared/ipc";
import { toolsInOrder } from "../../shared/store/selectors";
import type { Conversation } from "../../shared/store/types";
import { sumChanges } from "./callChanges";

export interface Turn {
  /** The user message that started it; null for answers before any (a history starting with one). */
  userMessageId: string | null;
  /** Its answers, in order. */
  messageIds: string[];
}

export interface TurnCheckpoints {
  turn: Turn;
  /** The changes of each call that carries some, in order. */
  calls: CallChanges[];
  /** What the turn changed, summed over its calls. */
  files: FileChange[];
  /** The checkpoint before the turn's first call that can change files (null: none taken). */
  from: string | null;
  /** The first checkpoint of a later turn: the project right after this one; null = now. */
  to: string | null;
  /** Where the project goes back to for "before this message": `from`, else `to`. */
  restoreTo: string | null;
  /** Calls whose change no checkpoint covers (it could not be taken). */
  uncovered: number;
  /**
   * Files changed by calls known only from the project's checkpoint list (a reopened
   * conversation): counted there, not named; the turn's diff names them.
   */
  unlisted: number;
}

/** A call's changes: from its result's report, else from the checkpoint list. */
interface Call {
  changes: CallChanges;
  /** Files it changed that the report did not name (known from the list only). */
  unlisted: number;
}

export function turnsOf(c: Conversation): Turn[] {
  const turns: Turn[] = [];
  for (const id of c.messageIds) {
    const m = c.messages[id];
    if (!m) continue;
    if (m.kind === "user") turns.push({ userMessageId: id, messageIds: [] });
    else if (turns.length === 0) turns.push({ userMessageId: null, messageIds: [id] });
    else turns[turns.length - 1]!.messageIds.push(id);
  }
  return turns;
}

function callsOf(c: Conversation, turn: Turn): Call[] {
  return turn.messageIds.flatMap((id) => {
    const m = c.messages[id];
    if (!m || m.kind !== "assistant") return [];
    return toolsInOrder(c, m).flatMap((t): Call[] => {
      const changes = t.report?.changes ?? null;
      if (changes) return [{ changes, unlisted: 0 }];
      if (!t.checkpoint) return [];
      return [{ changes: { checkpointId: t.checkpoint.id, files: [], error: null }, unlisted: t.checkpoint.filesChanged }];
    });
  });
}

export function turnCheckpoints(c: Conversation): TurnCheckpoints[] {
  const turns = turnsOf(c).map((turn) => {
    const found = callsOf(c, turn);
    const calls = found.map((k) => k.changes);
    const from = calls.find((k) => k.checkpointId)?.checkpointId ?? null;
    return { turn, calls, from, unlisted: found.reduce((n, k) => n + k.unlisted, 0) };
  });
  let later: string | null = null;
  const out: TurnCheckpoints[] = [];
  for (let i = turns.length - 1; i >= 0; i--) {
    const { turn, calls, from, unlisted } = turns[i]!;
    out.push({
      turn,
      calls,
      files: sumChanges(calls.map((k) => k.files)),
      from,
      to: later,
      restoreTo: from ?? later,
      uncovered: calls.filter((k) => k.error).length,
      unlisted,
    });
    if (from) later = from;
  }
  return out.reverse();
}
