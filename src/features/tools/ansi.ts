// A small ANSI SGR parser for terminal output: colours (16, 256, truecolour), bold, dim, italic,
// underline, inverse. Other escape sequences (cursor moves, OSC titles) are dropped. Output is data,
// rendered as React spans — never as HTML.

export interface AnsiStyle {
  fg?: string; // "ansi-3" (a theme class) or "#rrggbb"
  bg?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
}

export interface AnsiSpan {
  text: string;
  style: AnsiStyle;
  /** The text came from the program's stderr. */
  stderr?: boolean;
}

// CSI … final byte, or OSC … BEL/ST, or a lone two-byte escape.
// eslint-disable-next-line no-control-regex
const ESCAPE = /\x1b\[([0-9;:?]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

function cube(n: number): string {
  // xterm 256-colour table: 16-231 a 6x6x6 cube, 232-255 a grey ramp.
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return rgb(v, v, v);
  }
  const i = n - 16;
  const steps = [0, 95, 135, 175, 215, 255];
  return rgb(steps[Math.floor(i / 36) % 6]!, steps[Math.floor(i / 6) % 6]!, steps[i % 6]!);
}

function rgb(r: number, g: number, b: number): string {
  const h = (v: number) => Math.max(0, Math.min(255, v)).toString(16).padStart(2, "0");
  return `#${h(r)}${h(g)}${h(b)}`;
}

function extended(codes: number[], i: number): { colour?: string; used: number } {
  const mode = codes[i + 1];
  if (mode === 5 && codes[i + 2] !== undefined) {
    const n = codes[i + 2]!;
    return { colour: n < 16 ? `ansi-${n}` : cube(n), used: 2 };
  }
  if (mode === 2 && codes[i + 4] !== undefined) {
    return { colour: rgb(codes[i + 2]!, codes[i + 3]!, codes[i + 4]!), used: 4 };
  }
  return { used: 0 };
}

export function applySgr(style: AnsiStyle, params: string): AnsiStyle {
  const codes = params === "" ? [0] : params.split(/[;:]/).map((p) => (p === "" ? 0 : Number(p)));
  let s: AnsiStyle = { ...style };
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c === 0) s = {};
    else if (c === 1) s.bold = true;
    else if (c === 2) s.dim = true;
    else if (c === 3) s.italic = true;
    else if (c === 4) s.underline = true;
    else if (c === 7) s.inverse = true;
    else if (c === 22) s.bold = s.dim = false;
    else if (c === 23) s.italic = false;
    else if (c === 24) s.underline = false;
    else if (c === 27) s.inverse = false;
    else if (c >= 30 && c <= 37) s.fg = `ansi-${c - 30}`;
    else if (c >= 90 && c <= 97) s.fg = `ansi-${c - 90 + 8}`;
    else if (c >= 40 && c <= 47) s.bg = `ansi-${c - 40}`;
    else if (c >= 100 && c <= 107) s.bg = `ansi-${c - 100 + 8}`;
    else if (c === 39) delete s.fg;
    else if (c === 49) delete s.bg;
    else if (c === 38 || c === 48) {
      const { colour, used } = extended(codes, i);
      if (colour) s[c === 38 ? "fg" : "bg"] = colour;
      i += used;
    }
  }
  return s;
}

/** Lines rewritten by carriage returns (progress bars) keep only what was written last. */
function collapseCarriageReturns(s: string): string {
  if (!s.includes("\r")) return s;
  return s
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => {
      const i = line.lastIndexOf("\r", line.length - 2);
      return i >= 0 ? line.slice(i + 1) : line.replace(/\r$/, "");
    })
    .join("\n");
}

function parseInto(spans: AnsiSpan[], input: string, start: AnsiStyle, stderr: boolean): AnsiStyle {
  const text = collapseCarriageReturns(input);
  let style = start;
  let last = 0;
  const push = (t: string) => {
    if (!t) return;
    const prev = spans[spans.length - 1];
    if (prev && prev.style === style && !!prev.stderr === stderr) prev.text += t;
    else spans.push(stderr ? { text: t, style, stderr } : { text: t, style });
  };
  for (const m of text.matchAll(ESCAPE)) {
    push(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[2] === "m") style = applySgr(style, m[1] ?? "");
  }
  push(text.slice(last));
  return style;
}

export function parseAnsi(input: string): AnsiSpan[] {
  const spans: AnsiSpan[] = [];
  parseInto(spans, input, {}, false);
  return spans;
}

/** Output made of stdout and stderr pieces; colours carry across pieces as in a terminal. */
export function parseAnsiSegments(segments: readonly { text: string; stderr: boolean }[]): AnsiSpan[] {
  const spans: AnsiSpan[] = [];
  let style: AnsiStyle = {};
  for (const s of segments) style = parseInto(spans, s.text, style, s.stderr);
  return spans;
}

/** Cut `text` (which starts at `offset` of the whole output) into stdout / stderr pieces. */
export function splitByRanges(
  text: string,
  offset: number,
  ranges: readonly (readonly [number, number])[],
): { text: string; stderr: boolean }[] {
  const out: { text: string; stderr: boolean }[] = [];
  let pos = 0;
  for (const [a, b] of ranges) {
    const start = Math.max(0, a - offset);
    const end = Math.min(text.length, b - offset);
    if (end <= pos) continue;
    if (start > pos) out.push({ text: text.slice(pos, start), stderr: false });
    out.push({ text: text.slice(Math.max(pos, start), end), stderr: true });
    pos = end;
  }
  if (pos < text.length) out.push({ text: text.slice(pos), stderr: false });
  return out;
}
