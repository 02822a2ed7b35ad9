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

/**
 * What each call of the turn changed, as the engine says it: live, in its result's report; for a
 * reopened conversation, in the report the engine kept or read back from the checkpoint log.
 */
function callsOf(c: Conversation, turn: Turn): CallChanges[] {
  return turn.messageIds.flatMap((id) => {
    const m = c.messages[id];
    if (!m || m.kind !== "assistant") return [];
    return toolsInOrder(c, m).flatMap((t) => (t.report?.changes ? [t.report.changes] : []));
  });
}

export function turnCheckpoints(c: Conversation): TurnCheckpoints[] {
  const turns = turnsOf(c).map((turn) => {
    const calls = callsOf(c, turn);
    const from = calls.find((k) => k.checkpointId)?.checkpointId ?? null;
    return { turn, calls, from };
  });
  let later: string | null = null;
  const out: TurnCheckpoints[] = [];
  for (let i = turns.length - 1; i >= 0; i--) {
    const { turn, calls, from } = turns[i]!;
    out.push({
      turn,
      calls,
      files: sumChanges(calls.map((k) => k.files)),
      from,
      to: later,
      restoreTo: from ?? later,
      uncovered: calls.filter((k) => k.error).length,
    });
    if (from) later = from;
  }
  return out.reverse();
}

/**
 * turnCheckpoints for the turns holding the messages from index `start` on (the mounted ones),
 * without reading the turns before them: what a turn shows depends on it and on later turns only.
 */
export function turnCheckpointsFrom(c: Conversation, start: number): TurnCheckpoints[] {
  let begin = Math.min(Math.max(0, start), c.messageIds.length);
  while (begin > 0 && c.messages[c.messageIds[begin] ?? ""]?.kind !== "user") begin--;
  return turnCheckpoints(begin === 0 ? c : { ...c, messageIds: c.messageIds.slice(begin) });
}
