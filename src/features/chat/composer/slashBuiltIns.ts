// What each built-in slash command does when sent: the window does it, and nothing reaches the
// engine. The composer clears the text first; what cannot be done now is said in a small notice.
import type { BuiltInName } from "./slashCommands";

/** What a built-in shows above the composer. */
export type SlashPanelState = { kind: "help" } | { kind: "cost" } | { kind: "notice"; text: string };

/** Said by `/plan` once plan mode is on. */
export const PLAN_MODE_ON =
  "Plan mode is on: the model only reads, then proposes a plan for you to approve. Ctrl+Shift+P or the Plan button turns it off.";

/**
 * Where the built-ins act. An action that cannot be done now returns why, in a sentence for the
 * user (there is no message to rewind yet); nothing when it was done.
 */
export interface BuiltInContext {
  /** `/clear`: a new conversation. */
  newConversation: () => string | void;
  /** `/compact`: the conversation's "Compact now". */
  compact: () => string | void;
  /** `/model`: the model switch, opened. */
  openModelSwitch: () => string | void;
  /** `/rewind`: the rewind control of the last message the user wrote, asking. */
  openRewind: () => string | void;
  /** `/permissions`: Settings, at the permission rules. */
  openPermissions: () => string | void;
  /** `/plan`: plan mode on for the conversation's next messages. */
  planModeOn: () => string | void;
  /** `/help`, `/cost` and notices: shown above the composer. */
  show: (panel: SlashPanelState) => void;
}

/** Runs the built-in `name`. */
export function runBuiltIn(name: BuiltInName, ctx: BuiltInContext): void {
  const problem = act(name, ctx);
  if (problem) ctx.show({ kind: "notice", text: problem });
}

function act(name: BuiltInName, ctx: BuiltInContext): string | void {
  switch (name) {
    case "clear":
      return ctx.newConversation();
    case "compact":
      return ctx.compact();
    case "model":
      return ctx.openModelSwitch();
    case "rewind":
      return ctx.openRewind();
    case "permissions":
      return ctx.openPermissions();
    case "cost":
      return ctx.show({ kind: "cost" });
    case "help":
      return ctx.show({ kind: "help" });
    case "plan":
      return ctx.planModeOn() ?? ctx.show({ kind: "notice", text: PLAN_MODE_ON });
  }
}
