// Splits streamed markdown into top-level blocks at blank lines outside code fences, so a render
// re-parses only the block still growing: the finished blocks are equal strings and their memoized
// components skip the work. A long answer then costs O(last block) per frame, not O(message).

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export function splitMarkdownBlocks(text: string): string[] {
  const blocks: string[] = [];
  const lines = text.split("\n");
  let current: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    const m = FENCE.exec(line);
    if (m) {
      const marker = m[1]!;
      if (fence === null) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = null;
    }
    if (fence === null && line.trim() === "" && current.length > 0) {
      // Blocks that continue across blank lines (loose lists, indented code) are joined again below.
      blocks.push(current.join("\n"));
      current = [];
      continue;
    }
    if (line.trim() === "" && current.length === 0) continue;
    current.push(line);
  }
  if (current.length) blocks.push(current.join("\n"));
  return mergeListBlocks(blocks);
}

const LIST_ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])\s/;
const INDENTED = /^( {2,}|\t)/;
const INDENTED_CODE = /^( {4}|\t)/;

/** A loose list (items separated by blank lines), an item's indented paragraph, or indented code stays one block. */
function mergeListBlocks(blocks: string[]): string[] {
  const out: string[] = [];
  for (const b of blocks) {
    const prev = out[out.length - 1];
    const list = prev !== undefined && LIST_ITEM.test(prev) && (LIST_ITEM.test(b) || INDENTED.test(b));
    const code = prev !== undefined && INDENTED_CODE.test(prev) && INDENTED_CODE.test(b);
    if (prev !== undefined && (list || code)) {
      out[out.length - 1] = `${prev}\n\n${b}`;
    } else {
      out.push(b);
    }
  }
  return out;
}
