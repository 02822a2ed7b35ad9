import { describe, expect, it } from "vitest";
import { parseUnifiedDiff } from "../tools/diff";
import { shownPart, splitPatch, unquoteGitPath } from "./patchFiles";

// What `git diff-tree -p -r --no-renames --no-color` printed for a change to a text file, a binary
// file, a new file with an unusual name, a removal, a name with a space and a file in a new folder.
const PATCH =
  "diff --git a/a.txt b/a.txt\nindex 814f4a4..879de50 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+TWO\n" +
  "diff --git a/b.bin b/b.bin\nindex 88768ef..3e3315e 100644\nBinary files a/b.bin and b/b.bin differ\n" +
  'diff --git "a/caf\\303\\251 \\"q\\".txt" "b/caf\\303\\251 \\"q\\".txt"\nnew file mode 100644\nindex 0000000..c600332\n--- /dev/null\n+++ "b/caf\\303\\251 \\"q\\".txt"\t\n@@ -0,0 +1 @@\n+\u00e9\n' +
  "diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\nindex b023018..0000000\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n" +
  "diff --git a/my file.txt b/my file.txt\nindex 587be6b..975fbec 100644\n--- a/my file.txt\t\n+++ b/my file.txt\t\n@@ -1 +1 @@\n-x\n+y\n" +
  "diff --git a/src/new.txt b/src/new.txt\nnew file mode 100644\nindex 0000000..3e75765\n--- /dev/null\n+++ b/src/new.txt\n@@ -0,0 +1 @@\n+new\n";

describe("splitPatch", () => {
  it("names every file of git's diff, unusual names included", () => {
    expect(splitPatch(PATCH).map((f) => f.path)).toEqual([
      "a.txt",
      "b.bin",
      'café "q".txt',
      "gone.txt",
      "my file.txt",
      "src/new.txt",
    ]);
  });

  it("gives each file its own part, which the diff view reads as that file's lines only", () => {
    const files = splitPatch(PATCH);
    const a = parseUnifiedDiff(files[0]!.diff);
    expect(a.filter((l) => l.kind === "add").map((l) => l.text)).toEqual(["TWO"]);
    expect(a.filter((l) => l.kind === "del").map((l) => l.text)).toEqual(["two"]);
    const gone = parseUnifiedDiff(files[3]!.diff);
    expect(gone.filter((l) => l.kind === "del").map((l) => l.text)).toEqual(["bye"]);
    expect(gone.some((l) => l.kind === "add")).toBe(false);
    expect(files[1]!.diff).toContain("Binary files");
    expect(files.map((f) => f.diff).join("")).toBe(PATCH);
  });

  it("is empty for no differences and ignores text before the first file", () => {
    expect(splitPatch("")).toEqual([]);
    expect(splitPatch("\n… (diff cut here)\n")).toEqual([]);
  });

  it("keeps a removed line that looks like a file header as content", () => {
    const patch = "diff --git a/x.md b/x.md\n--- a/x.md\n+++ b/x.md\n@@ -1,2 +1 @@\n--- a/elsewhere\n keep\n";
    const [x] = splitPatch(patch);
    expect(x!.path).toBe("x.md");
  });
});

describe("shownPart", () => {
  it("drops the header lines the file's title already says, and keeps what it does not", () => {
    const [, bin, made, gone] = splitPatch(PATCH);
    expect(shownPart(made!.diff)).toBe('new file mode 100644\n--- /dev/null\n+++ "b/caf\\303\\251 \\"q\\".txt"\t\n@@ -0,0 +1 @@\n+\u00e9\n');
    expect(shownPart(bin!.diff)).toBe("Binary files a/b.bin and b/b.bin differ\n");
    // A removed line that reads like a header is content.
    expect(shownPart("diff --git a/x b/x\n@@ -1 +0,0 @@\n-index 3\n")).toBe("@@ -1 +0,0 @@\n-index 3\n");
    expect(shownPart(gone!.diff)).toContain("deleted file mode");
  });
});

describe("unquoteGitPath", () => {
  it("undoes git's C quoting, octal UTF-8 bytes included, and leaves plain names alone", () => {
    expect(unquoteGitPath('"a/caf\\303\\251.txt"')).toBe("a/café.txt");
    expect(unquoteGitPath('"tab\\there \\"q\\" back\\\\slash"')).toBe('tab\there "q" back\\slash');
    expect(unquoteGitPath("plain name.txt")).toBe("plain name.txt");
  });
});
