// A search snippet is a stretch of a message as it was written, markdown and all, flattened to one
// line by the engine. The list shows it as the transcript reads: the words, without the marks
// (`**`, `#`, backticks, link addresses, table pipes). Inside a code span the text stays as it is.

/** Backslash escapes: the character itself, never a mark. */
const ESCAPED = /\\([\\`*_{}[\]()#+\-.!|~>])/g;
/** Private-use characters standing for escaped ones while the marks are taken out. */
const HOLD = 0xe000;

/** Markdown's marks taken out of text that is not code. */
function unmark(text: string): string {
  return (
    text
      // ![alt](address) → alt; [words](address) → words; also one the snippet cut short.
      .replace(/!?\[([^\]]*)\]\([^)]*(\)|$)/g, "$1")
      .replace(/<((?:https?|mailto):[^>\s]+)>/g, "$1")
      // **strong**, __strong__, ~~struck~~, then *em* and _em_ (not snake_case's underscores).
      .replace(/(\*\*|__|~~)(?=\S)(.+?\S)\1/g, "$2")
      .replace(/(^|[^\w*])\*(?=[^\s*])([^*]*?[^\s*])\*(?![\w*])/g, "$1$2")
      .replace(/(^|[^\w])_(?=[^\s_])([^_]*?[^\s_])_(?!\w)/g, "$1$2")
      // # headings and > quotes where a line began; table rules, pipes and --- rules standing alone.
      .replace(/(^|[\s…])#{1,6}(?=\s)/g, "$1")
      .replace(/^(\s*…?)>(?=\s)/, "$1")
      .replace(/(^|\s)\|?(?:\s*:?-{3,}:?\s*\|)+(?:\s*:?-{3,}:?)?(?=\s|$)/g, "$1")
      .replace(/(^|\s)(?:\||-{3,}|\*{3,}|_{3,})(?=\s|$)/g, "$1")
  );
}

/** `snippet` as plain text: markdown's marks out, the words and code as they read. */
export function plainSnippet(snippet: string): string {
  const held: string[] = [];
  const text = snippet.replace(ESCAPED, (_, ch: string) => String.fromCharCode(HOLD + held.push(ch) - 1));
  // Backtick runs open and close code: the parts between them are code, the others prose.
  const parts = text.split(/(`+)/);
  let out = "";
  let fence: string | null = null;
  for (const part of parts) {
    if (part.startsWith("`")) {
      if (fence === null) fence = part;
      else if (part === fence) fence = null;
      else out += part;
      continue;
    }
    // A fence's language name is not part of the code.
    out += fence === null ? unmark(part) : fence.length >= 3 ? part.replace(/^[\w+-]+(?=\s)/, "") : part;
  }
  const restored = out.replace(/[\ue000-\uf8ff]/g, (c) => held[c.charCodeAt(0) - HOLD] ?? c);
  return restored.replace(/\s{2,}/g, " ").trim();
}
