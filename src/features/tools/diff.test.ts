import { describe, expect, it } from "vitest";
import { diffStats, parseUnifiedDiff } from "./diff";

const DIFF = `--- a/src/main.rs
+++ b/src/main.rs
@@ -1,3 +1,4 @@
 fn main() {
-    println!("hi");
+    println!("hello");
+    -- not a header
 }
`;

describe("parseUnifiedDiff", () => {
  it("numbers old and new lines and classifies each", () => {
    const lines = parseUnifiedDiff(DIFF);
    expect(lines.map((l) => l.kind)).toEqual(["file", "file", "hunk", "ctx", "del", "add", "add", "ctx"]);
    expect(lines[4]).toMatchObject({ kind: "del", oldNo: 2, text: '    println!("hi");' });
    expect(lines[5]).toMatchObject({ kind: "add", newNo: 2 });
    expect(lines[7]).toMatchObject({ kind: "ctx", oldNo: 3, newNo: 4, text: "}" });
    expect(diffStats(lines)).toEqual({ added: 2, removed: 1 });
  });

  it("reads a removed line starting with dashes as content inside a hunk", () => {
    const lines = parseUnifiedDiff("@@ -1,1 +0,0 @@\n--- old text\n");
    expect(lines[1]).toMatchObject({ kind: "del", text: "-- old text" });
  });
});
