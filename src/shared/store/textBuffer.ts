// Append-only text for streamed deltas. Folding a delta is O(1): the new snapshot shares the parts
// array with the old one and only remembers how many parts it sees, so older snapshots stay valid
// (they read fewer parts). The joined string is built on read and cached per parts array, so a
// render after k new deltas costs those k parts plus one concatenation, never a rebuild per delta.

export interface TextBuffer {
  /** Shared between snapshots; only ever pushed to. */
  readonly parts: string[];
  /** How many of `parts` belong to this snapshot. */
  readonly count: number;
  /** Total characters in this snapshot. */
  readonly length: number;
}

export function emptyText(): TextBuffer {
  return { parts: [], count: 0, length: 0 };
}

export function textFrom(s: string): TextBuffer {
  return s ? { parts: [s], count: 1, length: s.length } : emptyText();
}

export function appendText(buf: TextBuffer, s: string): TextBuffer {
  if (!s) return buf;
  if (buf.parts.length === buf.count) {
    buf.parts.push(s);
    return { parts: buf.parts, count: buf.count + 1, length: buf.length + s.length };
  }
  // Someone appended to a newer snapshot of the same parts: fork so neither sees the other's text.
  const parts = buf.parts.slice(0, buf.count);
  parts.push(s);
  return { parts, count: buf.count + 1, length: buf.length + s.length };
}

const joined = new WeakMap<string[], { count: number; text: string }>();

export function textOf(buf: TextBuffer): string {
  if (buf.count === 0) return "";
  const cached = joined.get(buf.parts);
  if (cached && cached.count === buf.count) return cached.text;
  const text =
    cached && cached.count < buf.count
      ? cached.text + buf.parts.slice(cached.count, buf.count).join("")
      : buf.parts.slice(0, buf.count).join("");
  // Keep the longest join: reads of an older snapshot must not throw away the newest one.
  if (!cached || cached.count < buf.count) joined.set(buf.parts, { count: buf.count, text });
  return text;
}
