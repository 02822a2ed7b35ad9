// The composer's slash commands: the window's own built-ins, then the custom commands and the skills
// the engine found (`conventions_list`), as one small list the completion filters by what is typed;
// and which built-in a message names. A custom command or a skill is sent as typed: the engine
// expands it. So is any other message starting with "/" (`/usr/bin/env is missing`).
import type { ConventionOrigin, ConventionsInUse } from "../../../shared/ipc";

/** The commands the window runs itself (never sent), in the order the list shows them. */
export const BUILT_INS = [
  { name: "clear", description: "Start a new conversation" },
  { name: "compact", description: "Compact now: the model gets a summary of the older messages from now on" },
  { name: "model", description: "Change the model that answers" },
  { name: "rewind", description: "Drop your last message and what came after it (files stay)" },
  { name: "cost", description: "What this conversation and today have cost" },
  { name: "permissions", description: "Open Settings at the permission rules" },
  { name: "help", description: "List the commands and skills" },
  { name: "plan", description: "Plan mode on: the model only reads, then proposes a plan for you to approve" },
] as const;

export type BuiltInName = (typeof BUILT_INS)[number]["name"];

/** One entry of the completion list. */
export type SlashItem =
  | { kind: "builtin"; name: BuiltInName; description: string }
  | {
      kind: "command";
      name: string;
      description: string | null;
      hint: string | null;
      origin: ConventionOrigin;
      path: string;
    }
  | { kind: "skill"; name: string; description: string; origin: ConventionOrigin; path: string };

/** The badge saying where a command or skill comes from. */
export const ORIGIN_LABEL: Record<ConventionOrigin, string> = {
  project: "project",
  warden: "yours",
  agents: "~/.agents",
};

/**
 * Every entry the completion can offer: the built-ins, then the custom commands, then the skills
 * switched on. `found` null (not known yet, or no project folder: a conversation without one has
 * neither) leaves the built-ins alone.
 */
export function slashItems(found: ConventionsInUse | null): SlashItem[] {
  const builtIns: SlashItem[] = BUILT_INS.map((b) => ({ kind: "builtin", name: b.name, description: b.description }));
  if (!found) return builtIns;
  const commands: SlashItem[] = found.commands.map((c) => ({
    kind: "command",
    name: c.name,
    description: c.description,
    hint: c.argumentHint,
    origin: c.origin,
    path: c.path,
  }));
  const skills: SlashItem[] = found.skills
    .filter((s) => s.on)
    .map((s) => ({ kind: "skill", name: s.name, description: s.description, origin: s.origin, path: s.path }));
  return [...builtIns, ...commands, ...skills];
}

/** Where the first word of `text` ends (at its first whitespace, or the end). */
export function firstWordEnd(text: string): number {
  const at = text.search(/\s/);
  return at === -1 ? text.length : at;
}

/**
 * The name typed so far, when the completion applies: `text` starts with "/" and the caret is in
 * its first word. Null otherwise.
 */
export function slashPrefix(text: string, caret: number): string | null {
  if (!text.startsWith("/")) return null;
  const end = firstWordEnd(text);
  if (caret < 1 || caret > end) return null;
  return text.slice(1, end);
}

/** The entries whose name starts with `prefix`, in the list's order (case does not matter). */
export function matchSlash(items: readonly SlashItem[], prefix: string): SlashItem[] {
  const typed = prefix.toLowerCase();
  return items.filter((item) => item.name.toLowerCase().startsWith(typed));
}

/** `text` with its first word made `/name` and a space after it, and where the caret goes: after that space. */
export function completed(text: string, name: string): { text: string; caret: number } {
  const rest = text.slice(firstWordEnd(text));
  const head = `/${name} `;
  return { text: head + (rest.startsWith(" ") ? rest.slice(1) : rest), caret: head.length };
}

/** The built-in a message runs: its first word is `/name` of one, exactly (what follows is ignored). */
export function builtInOf(message: string): BuiltInName | null {
  const typed = message.trim();
  if (!typed.startsWith("/")) return null;
  const name = typed.slice(1, firstWordEnd(typed));
  return BUILT_INS.find((b) => b.name === name)?.name ?? null;
}
