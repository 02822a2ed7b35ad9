// The window's side of the one rule for untrusted text, against the cases the engine's side is
// tested with (`warden_core::visible`): the same file, the same answers.
import { describe, expect, it } from "vitest";
import HIDDEN_CHARS from "../../src-tauri/crates/warden-core/src/hidden_chars.json";
import { badgeLabel, pieces } from "./hiddenChars";

const shown = (text: string) => pieces(text).map((p) => (p.kind === "text" ? p.text : badgeLabel(p.codePoint))).join("");

describe("the one rule for untrusted text", () => {
  it.each(HIDDEN_CHARS.cases.map((c) => [c.text, c.shown] as const))("shows %j as the shared fixture says", (text, expected) => {
    expect(shown(text)).toBe(expected);
  });
});
