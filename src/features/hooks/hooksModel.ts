// The user's hooks as Settings → Hooks edits them: Claude Code's shape (event → matchers → commands,
// docs/HOOKS.md), listed flat, changed one hook at a time without touching the others' places, and
// what "Import JSON" reads (a `hooks` object, or a whole settings.json holding one).
import type { HookCommand, HookMatcher, HooksConfig, Settings } from "../../shared/ipc";

/** The events a hook may be for, in the order a turn meets them. */
export const HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "Notification",
  "Stop",
  "SessionEnd",
] as const;

/** Events whose hooks are for some tools only (the matcher); the others ignore it. */
export const TOOL_EVENTS: readonly string[] = ["PreToolUse", "PostToolUse"];

/** Where a hook is: its event, its matcher group, its place in the group. */
export interface HookAt {
  event: string;
  group: number;
  index: number;
}

/** One hook as the list shows it and the form edits it. */
export interface HookEntry {
  event: string;
  matcher: string;
  hook: HookCommand;
}

export function hooksOf(settings: Settings): HooksConfig {
  return settings.hooks ?? {};
}

/** Every hook, by event in HOOK_EVENTS' order (an event Warden does not know last), with where it is. */
export function hookEntries(config: HooksConfig): (HookEntry & { at: HookAt })[] {
  const known: readonly string[] = HOOK_EVENTS;
  const events = Object.keys(config).sort((a, b) => rank(known, a) - rank(known, b));
  return events.flatMap((event) =>
    (config[event] ?? []).flatMap((m, group) =>
      m.hooks.map((hook, index) => ({ event, matcher: m.matcher ?? "", hook, at: { event, group, index } })),
    ),
  );
}

function rank(known: readonly string[], event: string): number {
  const i = known.indexOf(event);
  return i === -1 ? known.length : i;
}

/** `config` without the hook at `at`; a group or event left empty goes too. */
export function withoutHook(config: HooksConfig, at: HookAt): HooksConfig {
  const groups = (config[at.event] ?? [])
    .map((m, g) => (g === at.group ? { ...m, hooks: m.hooks.filter((_, i) => i !== at.index) } : m))
    .filter((m) => m.hooks.length > 0);
  const { [at.event]: _gone, ...rest } = config;
  return groups.length ? { ...rest, [at.event]: groups } : rest;
}

/**
 * `config` with `entry` put at `at` (an edit) or added (`at` null). An edit that keeps the event and
 * the matcher stays in its place; one that changes either, and a new hook, go last in their event,
 * in a group of their own.
 */
export function withHook(config: HooksConfig, at: HookAt | null, entry: HookEntry): HooksConfig {
  const old = at ? config[at.event]?.[at.group] : undefined;
  if (at && old && at.event === entry.event && (old.matcher ?? "") === entry.matcher) {
    const groups = config[at.event]!.map((m, g) =>
      g === at.group ? { ...m, hooks: m.hooks.map((h, i) => (i === at.index ? entry.hook : h)) } : m,
    );
    return { ...config, [at.event]: groups };
  }
  const base = at ? withoutHook(config, at) : config;
  const group: HookMatcher = entry.matcher ? { matcher: entry.matcher, hooks: [entry.hook] } : { hooks: [entry.hook] };
  return { ...base, [entry.event]: [...(base[entry.event] ?? []), group] };
}

/** The hooks of `extra` added after those of `base`, event by event (an identical group is not added twice). */
export function mergeHooks(base: HooksConfig, extra: HooksConfig): HooksConfig {
  const out: HooksConfig = { ...base };
  for (const [event, groups] of Object.entries(extra)) {
    const have = out[event] ?? [];
    const seen = new Set(have.map((g) => JSON.stringify(g)));
    out[event] = [...have, ...groups.filter((g) => !seen.has(JSON.stringify(g)))];
  }
  return out;
}

export type ImportRead = { hooks: HooksConfig } | { error: string };

/**
 * What "Import JSON" read: Claude Code's `hooks` object, or a whole settings.json with a `hooks`
 * key. Only its shape is checked here (events naming lists of `{matcher?, hooks: [{command…}]}`);
 * what would not run (an unknown event, a bad matcher) is for `hooks_check` to say.
 */
export function readImport(text: string): ImportRead {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { error: `This is not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  const root = isObject(parsed) && isObject(parsed.hooks) ? parsed.hooks : parsed;
  if (!isObject(root)) return { error: "Expected a JSON object: Claude Code's `hooks`, or a settings.json holding one." };
  if (Object.keys(root).length === 0) return { error: "It names no hooks." };
  for (const [event, groups] of Object.entries(root)) {
    if (!Array.isArray(groups)) return { error: `\`${event}\` should be a list of matchers, each with its \`hooks\`.` };
    for (const group of groups) {
      const problem = groupProblem(event, group);
      if (problem) return { error: problem };
    }
  }
  return { hooks: root as HooksConfig };
}

function groupProblem(event: string, group: unknown): string | null {
  if (!isObject(group) || !Array.isArray(group.hooks)) return `Each entry of \`${event}\` should have a \`hooks\` list.`;
  if (group.matcher !== undefined && typeof group.matcher !== "string") return `A matcher of \`${event}\` is not text.`;
  for (const hook of group.hooks) {
    if (!isObject(hook) || typeof hook.command !== "string") return `A hook of \`${event}\` has no \`command\` text.`;
    if (hook.timeout !== undefined && hook.timeout !== null && typeof hook.timeout !== "number") {
      return `The timeout of \`${hook.command}\` is not a number of seconds.`;
    }
  }
  return null;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}
