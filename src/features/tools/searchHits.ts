// Search results as a list of hits, from structured metadata when the tool gives it, else from the
// text result (ripgrep-style `path:line:text`, bare paths, or `title — url` lines of a web search).
import type { JsonValue } from "../../shared/ipc";

export interface SearchHit {
  /** A file path or a URL. */
  location: string;
  line?: number;
  text?: string;
  title?: string;
}

function str(o: Record<string, JsonValue>, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const v = o[k];
    if (typeof v === "string" && v) return v;
  }
  return undefined;
}

function fromMetadata(metadata: JsonValue | null): SearchHit[] | null {
  if (!metadata || typeof metadata !== "object" || Array.isArray(metadata)) return null;
  for (const key of ["matches", "hits", "results", "files"]) {
    const list = metadata[key];
    if (!Array.isArray(list)) continue;
    const hits: SearchHit[] = [];
    for (const item of list) {
      if (typeof item === "string") {
        hits.push({ location: item });
      } else if (item && typeof item === "object" && !Array.isArray(item)) {
        const location = str(item, "path", "file", "url", "link");
        if (!location) continue;
        const line = item["line"] ?? item["lineNumber"] ?? item["line_number"];
        hits.push({
          location,
          line: typeof line === "number" ? line : undefined,
          text: str(item, "text", "snippet", "content", "line_text"),
          title: str(item, "title"),
        });
      }
    }
    return hits;
  }
  return null;
}

const GREP_LINE = /^(.+?):(\d+):(.*)$/;
const URL_LINE = /(https?:\/\/\S+)/;

function fromText(result: string): SearchHit[] {
  const hits: SearchHit[] = [];
  for (const raw of result.split("\n")) {
    const line = raw.trimEnd();
    if (!line.trim()) continue;
    const g = GREP_LINE.exec(line);
    if (g && !URL_LINE.test(g[1]!)) {
      hits.push({ location: g[1]!, line: Number(g[2]), text: g[3] });
      continue;
    }
    const u = URL_LINE.exec(line);
    if (u) {
      const title = line.replace(u[1]!, "").replace(/^[\s\d.\-–—*]+|[\s\-–—:|]+$/g, "");
      hits.push({ location: u[1]!, title: title || undefined });
      continue;
    }
    // A note such as "12 matches in 3 files" or "(truncated)" is not a hit.
    if (/\s/.test(line.trim()) && !line.includes("/")) continue;
    hits.push({ location: line.trim() });
  }
  return hits;
}

export function searchHits(result: string | null, metadata: JsonValue | null): SearchHit[] {
  return fromMetadata(metadata) ?? (result ? fromText(result) : []);
}
