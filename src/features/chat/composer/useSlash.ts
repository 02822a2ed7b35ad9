// Slash commands in the composer, put together: the commands and skills the engine found, the
// completion list over them, and the built-ins run in the window (what they show above the composer
// included). The composer asks `runTyped` before it sends: a built-in is run, never sent.
import { useMemo, useState, type KeyboardEvent } from "react";
import { TID } from "../../../shared/testids";
import { compactNow, openModelSwitch, openRewind } from "./builtInTargets";
import { runBuiltIn, type SlashPanelState } from "./slashBuiltIns";
import { builtInOf, slashItems, type BuiltInName } from "./slashCommands";
import { useConventions } from "./useConventions";
import { localPlace, type ProjectPlace } from "../../../shared/projectPlace";
import { useSlashCompletion, type SlashFieldProps } from "./useSlashCompletion";

/** What the built-ins do outside the conversation; one not given says it cannot be done here. */
export interface SlashActions {
  /** `/clear`. */
  newConversation?: () => void;
  /** `/permissions`. */
  openSettingsAt?: (section: "permissions") => void;
}

/** What the composer is given for slash commands. */
export interface SlashSetup {
  /** The project folder (null: none chosen, so no commands or skills); read again when it changes. */
  projectDir?: string | null;
  /** Where the project is when the conversation is a remote project's (read there; null: not linked, so none). */
  place?: ProjectPlace | null;
  actions?: SlashActions;
}

const NOT_HERE = "This command is not available here.";

export function useSlash({
  projectDir,
  place,
  text,
  setText,
  input,
  actions = {},
  planModeOn,
}: SlashSetup & {
  text: string;
  setText: (text: string) => void;
  input: { current: HTMLTextAreaElement | null };
  /** `/plan`: plan mode on for this conversation. */
  planModeOn?: () => void;
}) {
  const from = place !== undefined ? place : projectDir === null ? null : localPlace(projectDir ?? "");
  const found = useConventions(from);
  const projectChosen = from !== null;
  const items = useMemo(() => slashItems(projectChosen ? found : null), [found, projectChosen]);
  const [panel, setPanel] = useState<SlashPanelState | null>(null);

  const run = (name: BuiltInName) => {
    setText("");
    setPanel(null);
    // The controls `/compact`, `/model` and `/rewind` use are this conversation's.
    const root = input.current?.closest(`[data-testid="${TID.conversationView}"]`) ?? document;
    runBuiltIn(name, {
      newConversation: () => (actions.newConversation ? actions.newConversation() : NOT_HERE),
      compact: () => compactNow(root),
      openModelSwitch: () => openModelSwitch(root),
      openRewind: () => openRewind(root),
      openPermissions: () => (actions.openSettingsAt ? actions.openSettingsAt("permissions") : NOT_HERE),
      planModeOn: () => (planModeOn ? planModeOn() : NOT_HERE),
      show: setPanel,
    });
  };

  const completion = useSlashCompletion({ text, setText, input, items, onRun: run });

  // Esc in the field closes the list first, then what a built-in shows; only then does it stop an answer.
  const field: SlashFieldProps = {
    ...completion.field,
    onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => {
      if (completion.field.onKeyDown(e)) return true;
      if (e.key !== "Escape" || !panel) return false;
      e.preventDefault();
      e.stopPropagation();
      setPanel(null);
      return true;
    },
  };

  /** Runs the built-in the message names, if it names one: true when it did (nothing is sent). */
  const runTyped = (message: string): boolean => {
    const name = builtInOf(message);
    if (name) run(name);
    return name !== null;
  };

  const closePanel = () => {
    setPanel(null);
    input.current?.focus();
  };

  return { field, completion, panel, closePanel, found, projectChosen, runTyped };
}

export type Slash = ReturnType<typeof useSlash>;
