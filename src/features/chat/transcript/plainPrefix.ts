// How much of a markdown block is plain prose that a parser would return unchanged, so a long
// paragraph still growing in a stream is not parsed whole on every frame (a 30 kB paragraph costs
// ~100 ms through remark + gfm). Conservative: only a one-line block that starts with a letter
// (always a paragraph: no heading, list, quote, setext underline or lazy continuation), cut at a
// space before the first character that could start inline markup. Inline markup after the cut
// cannot reach back into text that holds none of its delimiters.

/** Characters (and sequences) that can start inline markdown or gfm: escapes, code, emphasis,
 *  links/images, html, entities, strikethrough and the autolink literals. */
const INLINE = /[\\`*_[\]<&~@]|www\.|:\/\//i;
const LETTER = /\p{L}/u;

/** Length of the plain prefix of `block`: all of it, 0, or up to just after a space. */
export function plainPrefixLength(block: string): number {
  if (block.length === 0 || block.includes("\n") || !LETTER.test(block[0]!)) return 0;
  const m = INLINE.exec(block);
  if (!m) return block.length;
  for (let i = m.index - 1; i > 0; i--) {
    if (block[i] === " " && LETTER.test(block[i + 1] ?? "")) return i + 1;
  }
  return 0;
}
