// Settings → Permissions, in words: where a rule is kept, how it came to be, whether an allow rule
// is broader than one program, and the input a "Try a call" check sends for a tool.
import type { JsonValue, PermissionRule, RuleEffect, RuleOrigin, RuleScope } from "../../shared/ipc";
import { formatDateTime } from "../../shared/format";

export const SCOPE_WORDS: Record<RuleScope, string> = {
  project: "this project",
  user: "all projects",
  managed: "organisation",
};

export const EFFECT_WORDS: Record<RuleEffect, string> = {
  allow: "allow",
  ask: "ask",
  deny: "deny",
};

/** How a rule came to be; nothing when the engine kept no origin for it. */
export function originWords(origin: RuleOrigin | null | undefined): string | null {
  if (!origin) return null;
  switch (origin.kind) {
    case "card":
      return "saved from an approval";
    case "typed":
      return "typed";
    case "imported":
      return `imported from ${origin.from}`;
  }
}

/** The command pattern that stands for every command that only reads (checked word by word). */
export const READ_ONLY_PATTERN = "@read-only";

/** What `@read-only` covers, in words (the approval card and Settings say it). */
export const READ_ONLY_WORDS =
  "every command that only reads — ls, cat, grep, head, wc, git status, git log, git diff, … — each checked word by word: one that writes, deletes or runs another program still asks";

/** What a rule's pattern means when its text alone does not say it, or null. */
export function patternMeaning(tool: string, pattern: string | null | undefined): string | null {
  return tool.trim() === "bash" && (pattern ?? "").trim() === READ_ONLY_PATTERN ? READ_ONLY_WORDS : null;
}

/** Programs whose danger is in their arguments: an allow rule for any of their calls is broad. */
const ARGUMENT_DANGER = new Set(
  "rm rmdir mv cp dd ln chmod chown chgrp truncate shred kill pkill killall find xargs curl wget scp rsync ssh sh bash sudo".split(" "),
);
const EVERY_PATH = new Set(["**", "./**", "**/*", "*"]);

/**
 * Why an allow rule is broader than one program prefix (then the form warns before adding it), or
 * null when it is not.
 */
export function broadAllow(rule: Pick<PermissionRule, "effect" | "tool" | "pattern">): string | null {
  if (rule.effect !== "allow") return null;
  const tool = rule.tool.trim();
  const pattern = (rule.pattern ?? "").trim();
  if (tool === "bash") {
    if (!pattern || pattern === "*") return "This allows every command, whatever it does, without asking.";
    const words = pattern.split(/\s+/);
    const program = (words[0] ?? "").split("/").pop() ?? "";
    if (ARGUMENT_DANGER.has(program) && words.length > 1 && words[words.length - 1] === "*") {
      return `This allows ${program} with any arguments: what ${program} does depends on them, so it could delete, overwrite or send anything.`;
    }
    return null;
  }
  if (tool === "write" || tool === "read") {
    if (!pattern || EVERY_PATH.has(pattern)) {
      return tool === "write"
        ? "This allows changing every file of the project without asking."
        : "This allows reading every file of the project without asking.";
    }
  }
  return null;
}

/** Tools whose rules have a pattern: a command, a path glob or a host. */
export function hasPattern(tool: string): boolean {
  return ["bash", "read", "write", "network"].includes(tool.trim());
}

export type TryInputKind = "command" | "path" | "json";

/** What "Try a call" asks for with this tool: a command, a path, or the call's JSON input. */
export function tryInputKind(tool: string): TryInputKind {
  const t = tool.trim();
  if (t === "bash") return "command";
  if (["read", "write", "file_read", "file_write"].includes(t)) return "path";
  return "json";
}

/** The call's input as the tool takes it; throws with words when JSON does not parse. */
export function tryInput(tool: string, text: string): JsonValue {
  const t = tool.trim();
  if (t === "bash") return { command: text };
  if (t === "write" || t === "file_write") return { path: text, content: "" };
  if (t === "read" || t === "file_read") return { path: text };
  try {
    return JSON.parse(text.trim() || "{}") as JsonValue;
  } catch (e) {
    throw new Error(`The input is not JSON (${e instanceof Error ? e.message : String(e)}).`);
  }
}

/** When a rule last decided a call, for people; the text as given when it is not a date. */
export function lastUsedWords(when: string): string {
  const d = new Date(when);
  return Number.isNaN(d.getTime()) ? when : formatDateTime(d);
}
