import { describe, expect, it } from "vitest";
import { parseAnsi, parseAnsiSegments, splitByRanges, tailStart } from "./ansi";

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

  it("keeps the colour of text written after a carriage return", () => {
    const spans = parseAnsi("\x1b[32mold\r\x1b[31mnew\x1b[0m\n");
    expect(spans.map((s) => s.text).join("")).toBe("new\n");
    expect(spans[0]).toEqual({ text: "new", style: { fg: "ansi-1" } });
    // A colour set before the carriage return stays in force after it.
    const kept = parseAnsi("\x1b[33m10%\r20%");
    expect(kept).toEqual([{ text: "20%", style: { fg: "ansi-3" } }]);
  });

  it("rewrites only the current line, across colour changes", () => {
    const spans = parseAnsi("line one\n\x1b[1mbold\x1b[0m plain\rover");
    expect(spans.map((s) => s.text).join("")).toBe("line one\nover");
  });

  it("never shows the bytes of a CSI with private, intermediate or odd parameters", () => {
    for (const seq of ["\x1b[>4;2m", "\x1b[<0;1;2M", "\x1b[=1c", "\x1b[1 q", "\x1b[?1049h", "\x1b[2 @", "\x1b[!p"]) {
      const text = parseAnsi(`a${seq}b`).map((s) => s.text).join("");
      expect(text, JSON.stringify(seq)).toBe("ab");
    }
    // Private-parameter SGR-like sequences (`CSI > 4 ; 2 m`, xterm's modifyOtherKeys) change no colour.
    expect(parseAnsi("\x1b[>4;2mx")[0]!.style).toEqual({});
  });

  it("drops DCS / APC strings and charset escapes", () => {
    const text = parseAnsi("a\x1bPq#0;2;0;0;0\x1b\\b\x1b_apc\x1b\\c\x1b(Bd\x1b=e").map((s) => s.text).join("");
    expect(text).toBe("abcde");
  });

  it("drops an escape that is cut off at the end of the text", () => {
    for (const tail of ["\x1b", "\x1b[", "\x1b[38;5;1", "\x1b]0;title", "\x1b("]) {
      expect(parseAnsi(`ok${tail}`).map((s) => s.text).join(""), JSON.stringify(tail)).toBe("ok");
    }
  });
});

describe("tailStart", () => {
  it("moves a cut that falls inside an escape to its end", () => {
    const text = "aaaa\x1b[38;5;196mred";
    for (let cut = 5; cut < 15; cut++) {
      const start = tailStart(text, cut);
      expect(start, `cut ${cut}`).toBe(15);
      expect(parseAnsi(text.slice(start)).map((s) => s.text).join("")).toBe("red");
    }
    expect(tailStart(text, 4)).toBe(4);
    expect(tailStart(text, 16)).toBe(16);
    expect(tailStart(text, 0)).toBe(0);
  });
});
