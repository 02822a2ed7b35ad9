// Sums over what tool calls changed in the project (each call's `report.changes`, a CallChanges the
// engine puts on every call that can change files).
import type { ChangeStatus, FileChange } from "../../shared/ipc";

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
