// A multi-file unified diff (git's `diff-tree -p` output, as `checkpoint_patch` returns it) cut
// into one diff per file, each named by its path relative to the project root.

export interface FilePatch {
  path: string;
  /** The file's part of the diff, its `diff --git` line included. */
  diff: string;
}

/** Git's C-style quoting of an unusual path (`"a/caf\303\251 \"x\".txt"`), undone. */
export function unquoteGitPath(quoted: string): string {
  if (!quoted.startsWith('"') || !quoted.endsWith('"') || quoted.length < 2) return quoted;
  const body = quoted.slice(1, -1);
  const bytes: number[] = [];
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '"': 34, "\\": 92 };
  const encoder = new TextEncoder();
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== "\\") {
      bytes.push(...encoder.encode(ch));
      continue;
    }
    const next = body[i + 1] ?? "";
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else if (next in simple) {
      bytes.push(simple[next]!);
      i += 1;
    } else {
      bytes.push(92);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** A path of a `---`/`+++` line (`a/x`, `b/x`, quoted or not); null for /dev/null. */
function sidePath(raw: string): string | null {
  const value = unquoteGitPath(raw.replace(/\t$/, ""));
  if (value === "/dev/null") return null;
  return value.replace(/^[ab]\//, "");
}

/** The path of a `diff --git a/P b/P` line (the same path both sides: renames are off). */
function headerPath(rest: string): string {
  if (rest.startsWith('"')) {
    const end = /^"(?:[^"\\]|\\.)*"/.exec(rest);
    if (end) return unquoteGitPath(end[0]).replace(/^a\//, "");
  }
  // "a/P b/P": both halves the same length.
  const half = (rest.length - 1) / 2;
  return Number.isInteger(half) ? rest.slice(2, half) : rest.replace(/^a\//, "");
}

export function splitPatch(patch: string): FilePatch[] {
  const out: FilePatch[] = [];
  const lines = patch.split("\n");
  let current: { lines: string[]; path: string } | null = null;
  const close = () => {
    if (current) out.push({ path: current.path, diff: current.lines.join("\n") + "\n" });
  };
  for (const line of lines) {
    if (line.startsWith("diff --git ")) {
      close();
      current = { lines: [line], path: headerPath(line.slice("diff --git ".length)) };
      continue;
    }
    if (!current) continue;
    // Before the first hunk, the ---/+++ lines name the file more surely than the header.
    if (!current.lines.some((l) => l.startsWith("@@"))) {
      if (line.startsWith("--- ") || line.startsWith("+++ ")) {
        const p = sidePath(line.slice(4));
        if (p !== null) current.path = p;
      }
    }
    current.lines.push(line);
  }
  close();
  // The trailing newline of the whole text made an empty last line.
  return out.map((f) => ({ ...f, diff: f.diff.replace(/\n\n$/, "\n") }));
}

/** A file's part without the lines its header already says (`diff --git`, `index`): what to show. */
export function shownPart(diff: string): string {
  const lines = diff.split("\n");
  const firstHunk = lines.findIndex((l) => l.startsWith("@@"));
  const head = firstHunk === -1 ? lines.length : firstHunk;
  return lines.filter((l, i) => i >= head || !(l.startsWith("diff --git ") || l.startsWith("index "))).join("\n");
}
