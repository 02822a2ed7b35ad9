// Why a call asks, in words: one line per step of the policy the engine names (`askedBecause`).
import type { AskStep } from "../../shared/ipc";

const WORDS: Record<AskStep, string> = {
  no_rule: "No rule covers this call, and your trust level asks before this tool runs.",
  ask_rule: "One of your rules says to ask before this call.",
  outside_box: "This call needs more than the sandbox gives (the network, files outside it, or protected git files).",
  unjudgeable: "Warden cannot tell what this command does, and no sandbox contains it.",
  not_contained: "Commands are not contained on this machine, so each one asks.",
  rule_needs_box: "A rule allows this command, but such rules apply only when commands run in the sandbox, which they do not here.",
  supervised: "You chose Supervised: every call that changes something asks.",
  tool_always_asks: "You chose to be asked before every call of this tool.",
  no_checkpoint: "Warden could not take a checkpoint first, so this change could not be undone.",
};

/** The words for the step that made a call ask. */
export function askedBecauseText(step: AskStep): string {
  return WORDS[step] ?? "";
}
