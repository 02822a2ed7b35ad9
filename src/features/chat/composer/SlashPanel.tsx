// What a built-in slash command shows above the composer: `/help`'s list, `/cost`'s report, or a
// notice (`/plan`, or why a command could not be done now). Closed with × or Esc inside it.
import type { ConventionsInUse } from "../../../shared/ipc";
import { TID } from "../../../shared/testids";
import { CostReport } from "../../cost/CostReport";
import type { SlashPanelState } from "./slashBuiltIns";
import { SlashHelp } from "./SlashHelp";

const LABEL: Record<SlashPanelState["kind"], string> = {
  help: "Commands and skills",
  cost: "Tokens and cost",
  notice: "Notice",
};

export function SlashPanel({
  panel,
  conversationId,
  found,
  projectChosen,
  onClose,
}: {
  panel: SlashPanelState;
  conversationId: string;
  found: ConventionsInUse | null;
  projectChosen: boolean;
  onClose: () => void;
}) {
  return (
    <section
      className={`slash-panel slash-panel-${panel.kind}`}
      data-testid={TID.slashPanel}
      data-panel={panel.kind}
      aria-label={LABEL[panel.kind]}
      onKeyDown={(e) => {
        if (e.key === "Escape") {
          e.preventDefault();
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <button
        type="button"
        className="slash-panel-close link"
        data-testid={TID.slashPanelClose}
        aria-label={`Close: ${LABEL[panel.kind]}`}
        onClick={onClose}
      >
        ×
      </button>
      {panel.kind === "help" && <SlashHelp found={found} projectChosen={projectChosen} />}
      {/* `/cost`: the cost feature's own report of this conversation and today. */}
      {panel.kind === "cost" && <CostReport conversationId={conversationId} />}
      {panel.kind === "notice" && (
        <p className="small" role="status">
          {panel.text}
        </p>
      )}
    </section>
  );
}
