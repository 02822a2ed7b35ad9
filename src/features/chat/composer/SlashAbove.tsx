// Above the message field, for slash commands: what a built-in shows (in the flow, above the
// composer) and the completion list (over what is above it).
import { SlashList } from "./SlashList";
import { SlashPanel } from "./SlashPanel";
import type { Slash } from "./useSlash";
import "./slash.css";

export function SlashAbove({ slash, conversationId }: { slash: Slash; conversationId: string }) {
  return (
    <>
      {slash.panel && (
        <SlashPanel
          panel={slash.panel}
          conversationId={conversationId}
          found={slash.found}
          projectChosen={slash.projectChosen}
          onClose={slash.closePanel}
        />
      )}
      <SlashList completion={slash.completion} />
    </>
  );
}
