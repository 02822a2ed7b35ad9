// Under the last message the model no longer sees as written: from here up, it is sent a summary.
import { formatTokens } from "../../../shared/format";
import type { CompactionMark } from "../../../shared/store/types";
import { TID } from "../../../shared/testids";

export const COMPACTION_EXPLAIN = "The model now sees a summary of the messages above; you still see them all.";

export function CompactionDivider({ mark }: { mark: CompactionMark }) {
  const text = `Earlier messages summarized for the model · ${formatTokens(mark.tokensBefore)} → ${formatTokens(mark.tokensAfter)} tokens`;
  return (
    <div
      className="compaction-divider"
      role="separator"
      aria-label={text}
      title={COMPACTION_EXPLAIN}
      data-testid={TID.compactionDivider}
      data-summarized={mark.summarizedMessages}
    >
      <span className="compaction-divider-text">{text}</span>
    </div>
  );
}
