// What one tool call changed in the project, read from its result's metadata (`changes`, a
// CallChanges the engine puts on every call that can change files), and sums over several calls.
import type { CallChanges, ChangeStatus, FileChange, JsonValue } from "../../shared/ipc";

const STATUSES: ReadonlySet<string> = new Set<ChangeStatus>(["created", "modified", "deleted"]);

const count = (x: unknown): number | null => (typeof x === "number" && Number.isFinite(x) && x >= 0 ? x : null);
const text = (x: unknown): string | null => (typeof x === "string" ? x : null);

function fileChange(x: unknown): FileChange | null {
  if (!x || typeof x !== "object" || Array.isArray(x)) return null;
  const f = x as Record<string, unknown>;
  if (typeof f.path !== "string" || !f.path || typeof f.status !== "string" || !STATUSES.has(f.status)) return null;
  return {
    path: f.path,
    status: f.status as ChangeStatus,
    added: count(f.added),
    removed: count(f.removed),
    binary: f.binary === true,
    oldMode: text(f.oldMode),
    newMode: text(f.newMode),
  };
}

/** The call's `metadata.changes`, or null when the call carries none (it cannot change files). */
export function callChangesOf(metadata: JsonValue | null | undefined): CallChanges | null {
  if (!metadata || typeof metadata !== "object" || Array.isArray(metadata)) return null;
  const c = metadata["changes"];
  if (!c || typeof c !== "object" || Array.isArray(c)) return null;
  const files = Array.isArray(c["files"]) ? c["files"].map(fileChange).filter((f): f is FileChange => f !== null) : [];
  const checkpointId = typeof c["checkpointId"] === "string" && c["checkpointId"] ? c["checkpointId"] : null;
  const error = typeof c["error"] === "string" ? c["error"] : null;
  return { checkpointId, files, error };
}

export interface ChangeTotals {
  files: number;
  added: number;
  removed: number;
}

export function totalsOf(files: readonly FileChange[]): ChangeTotals {
  return files.reduce<ChangeTotals>(
    (t, f) => ({ files: t.files + 1, added: t.added + (f.added ?? 0), removed: t.removed + (f.removed ?? 0) }),
    { files: 0, added: 0, removed: 0 },
  );
}

/**
 * Several calls' changes as one list, in the order files were first touched: lines added and
 * removed summed, the status from whether the file existed before the first call and after the
 * last. A file made and removed again within them changed nothing and is left out.
 */
export function sumChanges(calls: readonly (readonly FileChange[])[]): FileChange[] {
  const byPath = new Map<string, { first: FileChange; last: FileChange; added: number | null; removed: number | null; binary: boolean }>();
  for (const files of calls) {
    for (const f of files) {
      const seen = byPath.get(f.path);
      if (!seen) {
        byPath.set(f.path, { first: f, last: f, added: f.added, removed: f.removed, binary: f.binary });
        continue;
      }
      seen.last = f;
      seen.binary = seen.binary || f.binary;
      seen.added = seen.added === null || f.added === null ? null : seen.added + f.added;
      seen.removed = seen.removed === null || f.removed === null ? null : seen.removed + f.removed;
    }
  }
  const out: FileChange[] = [];
  for (const [path, s] of byPath) {
    const before = s.first.status !== "created";
    const after = s.last.status !== "deleted";
    if (!before && !after) continue;
    const status: ChangeStatus = before && after ? "modified" : after ? "created" : "deleted";
    out.push({
      path,
      status,
      added: s.binary ? null : s.added,
      removed: s.binary ? null : s.removed,
      binary: s.binary,
      oldMode: s.first.oldMode,
      newMode: s.last.newMode,
    });
  }
  return out;
}

export const filesLabel = (n: number) => `${n} ${n === 1 ? "file" : "files"}`;
