import { describe, expect, it } from "vitest";
import { parseAnsi, parseAnsiSegments, splitByRanges } from "./ansi";

describe("parseAnsi", () => {
  it("splits text into styled spans and resets on 0", () => {
    const spans = parseAnsi("plain \x1b[1;31mbold red\x1b[0m after");
    expect(spans.map((s) => s.text)).toEqual(["plain ", "bold red", " after"]);
    expect(spans[1]!.style).toEqual({ bold: true, fg: "ansi-1" });
    expect(spans[2]!.style).toEqual({});
  });

  it("understands bright, 256-colour and truecolour codes", () => {
    expect(parseAnsi("\x1b[92mx")[0]!.style.fg).toBe("ansi-10");
    expect(parseAnsi("\x1b[38;5;196mx")[0]!.style.fg).toBe("#ff0000");
    expect(parseAnsi("\x1b[48;2;1;2;3mx")[0]!.style.bg).toBe("#010203");
    expect(parseAnsi("\x1b[38;5;4mx")[0]!.style.fg).toBe("ansi-4");
  });

  it("drops non-colour escapes and keeps the last write of a carriage-returned line", () => {
    const spans = parseAnsi("\x1b]0;title\x07\x1b[2Kprogress 10%\rprogress 100%\ndone\x1b[?25h");
    expect(spans.map((s) => s.text).join("")).toBe("progress 100%\ndone");
  });

  it("keeps CRLF line ends as plain newlines", () => {
    expect(parseAnsi("a\r\nb\r\n").map((s) => s.text).join("")).toBe("a\nb\n");
  });

  it("carries colours across stdout/stderr pieces and marks the stderr ones", () => {
    // Ranges are offsets into the raw output (escapes included); this text starts at offset 100.
    const spans = parseAnsiSegments(splitByRanges("a\x1b[32mb|c|d", 100, [[107, 109]]));
    expect(spans).toEqual([
      { text: "a", style: {} },
      { text: "b", style: { fg: "ansi-2" } },
      { text: "|c", style: { fg: "ansi-2" }, stderr: true },
      { text: "|d", style: { fg: "ansi-2" } },
    ]);
  });
});
