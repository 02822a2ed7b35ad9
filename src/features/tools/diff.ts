// Unified diff → typed lines with old/new line numbers, for DiffView.

export type DiffLineKind = "file" | "hunk" | "add" | "del" | "ctx" | "meta";

export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  oldNo?: number;
  newNo?: number;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function parseUnifiedDiff(diff: string): DiffLine[] {
  const out: DiffLine[] = [];
  let oldNo = 0;
  let newNo = 0;
  // Lines still expected in the current hunk, from its header: a removed line reading "-- x"
  // inside a hunk is content, not a file header.
  let oldLeft = 0;
  let newLeft = 0;
  const lines = diff.replace(/\r\n/g, "\n").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (const line of lines) {
    const inHunk = oldLeft > 0 || newLeft > 0;
    if (inHunk && line.startsWith("+")) {
      out.push({ kind: "add", text: line.slice(1), newNo: newNo++ });
      newLeft--;
      continue;
    }
    if (inHunk && line.startsWith("-")) {
      out.push({ kind: "del", text: line.slice(1), oldNo: oldNo++ });
      oldLeft--;
      continue;
    }
    if (inHunk && (line.startsWith(" ") || line === "")) {
      out.push({ kind: "ctx", text: line.slice(1), oldNo: oldNo++, newNo: newNo++ });
      oldLeft--;
      newLeft--;
      continue;
    }
    const h = HUNK.exec(line);
    if (h) {
      oldNo = Number(h[1]);
      oldLeft = h[2] === undefined ? 1 : Number(h[2]);
      newNo = Number(h[3]);
      newLeft = h[4] === undefined ? 1 : Number(h[4]);
      out.push({ kind: "hunk", text: line });
    } else if (line.startsWith("--- ") || line.startsWith("+++ ")) {
      out.push({ kind: "file", text: line });
    } else {
      out.push({ kind: "meta", text: line });
    }
  }
  return out;
}

export function diffStats(lines: DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.kind === "add") added++;
    else if (l.kind === "del") removed++;
  }
  return { added, removed };
}
