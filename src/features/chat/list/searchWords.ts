// The words of a conversation search as the engine takes them (split at anything not a letter or
// digit; every word must match, the last one as a prefix), and where they are in a title or a
// snippet, for the results to mark.

/** A piece of a text: `matched` when it is (the start of) a word searched for. */
export interface TextPart {
  text: string;
  matched: boolean;
}

/** As many words as the engine reads. */
const MAX_WORDS = 16;
/** A word of a query, where the engine splits one. */
const QUERY_WORD = /[\p{L}\p{N}]+/gu;
/** A word of a text, accents written apart from their letter kept with it (as the index keeps them). */
const TEXT_WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** The words of `query`, as the engine splits them; none for blank or punctuation-only text. */
export function searchWords(query: string): string[] {
  return (query.match(QUERY_WORD) ?? []).slice(0, MAX_WORDS);
}

/** Compared as the search compares: case and accents aside ("Café" is "cafe"). */
function fold(s: string): string {
  return s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** How many UTF-16 units of `token` make up `prefix` once folded; `0` when it does not start so. */
function prefixLength(token: string, prefix: string): number {
  if (!fold(token).startsWith(prefix)) return 0;
  let folded = "";
  let units = 0;
  for (const ch of token) {
    const f = fold(ch);
    // An accent written apart from its letter stays with it.
    if (folded.length >= prefix.length && f) break;
    folded += f;
    units += ch.length;
  }
  return units;
}

/**
 * `text` cut into pieces, the words of `words` marked: a whole word for all but the last, the
 * start of a word for the last (which is still being typed). Joined, the pieces are `text`.
 */
export function markWords(text: string, words: string[]): TextPart[] {
  const folded = words.map(fold).filter((w) => w);
  const last = folded.at(-1);
  if (last === undefined) return text ? [{ text, matched: false }] : [];
  const whole = new Set(folded.slice(0, -1));
  const parts: TextPart[] = [];
  let at = 0;
  const push = (piece: string, matched: boolean) => {
    if (!piece) return;
    const prev = parts.at(-1);
    if (prev && prev.matched === matched) prev.text += piece;
    else parts.push({ text: piece, matched });
  };
  for (const m of text.matchAll(TEXT_WORD)) {
    const token = m[0];
    const length = whole.has(fold(token)) ? token.length : prefixLength(token, last);
    if (!length) continue;
    push(text.slice(at, m.index), false);
    push(token.slice(0, length), true);
    at = m.index + length;
  }
  push(text.slice(at), false);
  return parts;
}
