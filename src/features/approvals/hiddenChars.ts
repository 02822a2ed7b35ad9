// Characters that make what a terminal or a browser shows differ from what runs: control
// characters (`\r` returns to the line start and overwrites it, ESC starts terminal sequences),
// bidirectional controls (U+202E shows `;rm -rf ~` as something else), zero-width and other
// invisible characters (two paths that look the same are not). The approval dialog shows each as a
// visible badge and says it found them (review #9, finding 4).

/** Kept as they are: they are visible as layout in a `pre-wrap` block. */
const LAYOUT = new Set(["\n", "\t"]);

/** Bidirectional controls, zero-width and other invisible or look-through characters. */
const INVISIBLE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00ad, 0x00ad], // soft hyphen
  [0x034f, 0x034f], // combining grapheme joiner
  [0x061c, 0x061c], // Arabic letter mark
  [0x115f, 0x1160], // Hangul fillers
  [0x17b4, 0x17b5], // Khmer inherent vowels
  [0x180b, 0x180f], // Mongolian variation selectors and vowel separator
  [0x200b, 0x200f], // zero-width space/non-joiner/joiner, LRM, RLM
  [0x2028, 0x202e], // line/paragraph separators, LRE RLE PDF LRO RLO
  [0x2060, 0x206f], // word joiner, invisible operators, LRI RLI FSI PDI, deprecated controls
  [0x3164, 0x3164], // Hangul filler
  [0xfe00, 0xfe0f], // variation selectors
  [0xfeff, 0xfeff], // zero-width no-break space (BOM)
  [0xffa0, 0xffa0], // halfwidth Hangul filler
  [0xfff9, 0xfffb], // interlinear annotations
  [0x1d173, 0x1d17a], // musical formatting controls
  [0xe0000, 0xe007f], // tag characters
  [0xe0100, 0xe01ef], // variation selectors supplement
];

/** Whether a code point must be shown as a badge instead of itself. */
export function isHidden(codePoint: number): boolean {
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint <= 0x9f)) {
    return !LAYOUT.has(String.fromCodePoint(codePoint));
  }
  return INVISIBLE_RANGES.some(([lo, hi]) => codePoint >= lo && codePoint <= hi);
}

/** `⟨U+202E⟩` for a hidden character. */
export function badgeLabel(codePoint: number): string {
  return `⟨U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

export type Piece = { kind: "text"; text: string } | { kind: "hidden"; codePoint: number };

/** `text` split into plain runs and hidden characters. */
export function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  let run = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (isHidden(cp)) {
      if (run) out.push({ kind: "text", text: run });
      run = "";
      out.push({ kind: "hidden", codePoint: cp });
    } else {
      run += ch;
    }
  }
  if (run) out.push({ kind: "text", text: run });
  return out;
}

/** The hidden characters in `text`, each once, in order of first appearance. */
export function hiddenIn(text: string): number[] {
  const found: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (isHidden(cp) && !found.includes(cp)) found.push(cp);
  }
  return found;
}

/** Every string in a JSON value (keys included), for scanning a tool's whole input. */
export function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => [k, ...stringsIn(v)]);
  }
  return [];
}
