// Files and how each changed: made, changed or removed, with the lines added and removed.
import type { FileChange } from "../../shared/ipc";
import { TID } from "../../shared/testids";

const MARK: Record<FileChange["status"], { sign: string; word: string }> = {
  created: { sign: "A", word: "new" },
  modified: { sign: "M", word: "changed" },
  deleted: { sign: "D", word: "removed" },
};

export function LineCounts({ added, removed }: { added: number | null; removed: number | null }) {
  if (added === null || removed === null) return <span className="muted small">binary</span>;
  return (
    <span className="line-counts">
      <span className="diff-added">+{added}</span> <span className="diff-removed">−{removed}</span>
    </span>
  );
}

export function FileChangeList({ files }: { files: readonly FileChange[] }) {
  return (
    <ul className="file-changes">
      {files.map((f) => (
        <li key={f.path} className={`file-change file-change-${f.status}`} data-testid={TID.fileChange} data-path={f.path} data-status={f.status}>
          <span className={`file-change-mark file-change-mark-${f.status}`} title={MARK[f.status].word} aria-label={MARK[f.status].word}>
            {MARK[f.status].sign}
          </span>
          <code className="file-change-path">{f.path}</code>
          <LineCounts added={f.added} removed={f.removed} />
        </li>
      ))}
    </ul>
  );
}
