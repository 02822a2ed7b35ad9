// Characters that make what a terminal or a browser shows differ from what runs: control
// characters (`\r` returns to the line start and overwrites it, ESC starts terminal sequences),
// bidirectional controls (U+202E shows `;rm -rf ~` as something else), zero-width and other
// invisible characters (two paths that look the same are not). The approval dialog shows each as a
// visible badge and says it found them; so does every other place a command, path, tool or
// conversation name is shown (tool blocks, titles, search snippets). The list is the engine's own
// file, tested here and in Rust against the same cases.
import HIDDEN_CHARS from "../../src-tauri/crates/warden-core/src/hidden_chars.json";

/** The one list, shared with the engine (`warden_core::visible`, notifications and the CLI). */
const RULE: { hidden: number[][]; layout: number[] } = HIDDEN_CHARS;

/** Whether a code point must be shown as a badge instead of itself (newline and tab are layout). */
export function isHidden(codePoint: number): boolean {
  // Printable ASCII, almost every character shown: no list to walk.
  if (codePoint >= 0x20 && codePoint < 0x7f) return false;
  if (RULE.layout.includes(codePoint)) return false;
  return RULE.hidden.some(([lo, hi]) => lo !== undefined && hi !== undefined && codePoint >= lo && codePoint <= hi);
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
