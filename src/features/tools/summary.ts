// What a tool block's header says: an icon and one line about the input.
import type { JsonValue, ToolCategory } from "../../shared/ipc";
import { firstLine } from "../../shared/format";

export type ToolKind = "bash" | "file-change" | "file-read" | "search" | "web" | "generic";

/** How a block shows a tool, by the category the engine gives it (`ToolDefinition.category`). */
export function toolKind(category: ToolCategory | null): ToolKind {
  switch (category) {
    case "exec":
      return "bash";
    case "fileChange":
      return "file-change";
    case "fileRead":
      return "file-read";
    case "search":
      return "search";
    case "web":
      return "web";
    default:
      return "generic";
  }
}

const ICONS: Record<ToolKind, string> = {
  bash: "❯",
  "file-change": "✎",
  "file-read": "▤",
  search: "⌕",
  web: "◎",
  generic: "⚙",
};

export function toolIcon(kind: ToolKind): string {
  return ICONS[kind];
}

function field(input: JsonValue | null, key: string): string | null {
  if (!input || typeof input !== "object" || Array.isArray(input)) return null;
  const v = input[key];
  if (typeof v === "string") return v;
  if (typeof v === "number") return String(v);
  return null;
}

/** A one-line description of the call: the path, command or query it is about. */
export function toolSummary(name: string, input: JsonValue | null): string {
  const pick = (...keys: string[]) => {
    for (const k of keys) {
      const v = field(input, k);
      if (v) return v;
    }
    return null;
  };
  let s: string | null;
  switch (name) {
    case "bash":
      s = pick("command");
      break;
    case "command_output":
    case "cancel_command":
      s = pick("handle");
      break;
    case "apply_patch": {
      const patch = pick("patch") ?? "";
      const files = [...patch.matchAll(/^\+\+\+ (?:b\/)?(.+)$/gm)].map((m) => m[1]);
      s = files.length ? files.join(", ") : "patch";
      break;
    }
    case "search_files":
      s = pick("pattern");
      break;
    case "search_in_files":
    case "web_search":
      s = pick("query");
      break;
    default:
      s = pick("path", "command", "query", "pattern", "url");
  }
  if (s === null && input && typeof input === "object" && !Array.isArray(input) && Object.keys(input).length) {
    s = JSON.stringify(input);
  }
  return s === null ? "" : firstLine(s, 100);
}
