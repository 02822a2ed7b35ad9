import { describe, expect, it } from "vitest";
import { searchHits } from "./searchHits";

describe("searchHits", () => {
  it("prefers structured metadata", () => {
    const hits = searchHits("ignored", { matches: [{ path: "src/a.rs", line: 3, text: "fn a()" }] });
    expect(hits).toEqual([{ location: "src/a.rs", line: 3, text: "fn a()", title: undefined }]);
  });

  it("parses ripgrep-style lines and bare paths, skipping notes", () => {
    const hits = searchHits("src/a.rs:12:fn main() {\nsrc/b.rs\n2 matches in 2 files", null);
    expect(hits).toEqual([{ location: "src/a.rs", line: 12, text: "fn main() {" }, { location: "src/b.rs" }]);
  });

  it("parses web results with a url per line", () => {
    const hits = searchHits("1. Rust book — https://doc.rust-lang.org/book/", null);
    expect(hits).toEqual([{ location: "https://doc.rust-lang.org/book/", title: "Rust book" }]);
  });
});
