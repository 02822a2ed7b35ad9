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

// Every escape sequence a terminal would consume, so none of it leaks into the text (ECMA-48):
// CSI: ESC [ parameter bytes (0-9 : ; < = > ?) intermediate bytes (space to /) a final byte;
// OSC / DCS / SOS / PM / APC strings up to BEL or ST; other escapes: ESC, intermediates, a final byte.
// Only a CSI with plain numeric parameters, no intermediates and final `m` is SGR (a colour change).
// eslint-disable-next-line no-control-regex
const ESCAPE = /\x1b\[([0-?]*)([ -/]*)([@-~])|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[ -/]*[0-~]/g;
// An escape the output was cut inside of (or that has not finished arriving): dropped, never shown.
// eslint-disable-next-line no-control-regex
const UNFINISHED = /\x1b(?:\[[0-?]*[ -/]*|[\]PX^_][^\x07\x1b]*|[ -/]*)$/;
const SGR_PARAMS = /^[0-9;:]*$/;

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

/** A carriage return followed by more text on the same line: what the line held so far is
 * overwritten (progress bars keep their last write). Styles set before it stay in force. */
function eraseCurrentLine(spans: AnsiSpan[]): void {
  while (spans.length > 0) {
    const last = spans[spans.length - 1]!;
    const nl = last.text.lastIndexOf("\n");
    if (nl >= 0) {
      last.text = last.text.slice(0, nl + 1);
      return;
    }
    spans.pop();
  }
}

/** What carries from one piece of output to the next, as in a terminal. */
interface ParseState {
  style: AnsiStyle;
  /** A carriage return was the last thing written: the next text overwrites the line. */
  pendingCr: boolean;
}

function parseInto(spans: AnsiSpan[], input: string, state: ParseState, stderr: boolean): void {
  const text = input.replace(/\r\n/g, "\n").replace(UNFINISHED, "");
  let last = 0;
  const append = (t: string) => {
    if (!t) return;
    if (state.pendingCr && !t.startsWith("\n")) eraseCurrentLine(spans);
    state.pendingCr = false;
    const prev = spans[spans.length - 1];
    if (prev && prev.style === state.style && !!prev.stderr === stderr) prev.text += t;
    else spans.push(stderr ? { text: t, style: state.style, stderr } : { text: t, style: state.style });
  };
  const push = (t: string) => {
    t.split("\r").forEach((part, i) => {
      if (i > 0) state.pendingCr = true;
      append(part);
    });
  };
  for (const m of text.matchAll(ESCAPE)) {
    push(text.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[3] === "m" && m[2] === "" && SGR_PARAMS.test(m[1] ?? "")) state.style = applySgr(state.style, m[1] ?? "");
  }
  push(text.slice(last));
}

/** Where to start showing the tail of `text` after `cut` characters: never inside an escape
 * sequence (which would show its bytes as text). */
export function tailStart(text: string, cut: number): number {
  if (cut <= 0) return 0;
  const esc = text.lastIndexOf("\x1b", cut - 1);
  if (esc < 0 || cut - esc > 256) return cut;
  ESCAPE.lastIndex = 0;
  const rest = text.slice(esc);
  const m = rest.match(new RegExp(`^(?:${ESCAPE.source})`));
  return m && esc + m[0].length > cut ? esc + m[0].length : cut;
}

export function parseAnsi(input: string): AnsiSpan[] {
  const spans: AnsiSpan[] = [];
  parseInto(spans, input, { style: {}, pendingCr: false }, false);
  return spans;
}

/** Output made of stdout and stderr pieces; colours carry across pieces as in a terminal. */
export function parseAnsiSegments(segments: readonly { text: string; stderr: boolean }[]): AnsiSpan[] {
  const spans: AnsiSpan[] = [];
  const state: ParseState = { style: {}, pendingCr: false };
  for (const s of segments) parseInto(spans, s.text, state, s.stderr);
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
