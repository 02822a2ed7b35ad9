// At the end of a rewound conversation, until the next message: what the rewind dropped, so the
// history says it rather than just getting shorter.
import type { RewindMark } from "../../../shared/store/types";
import { TID } from "../../../shared/testids";

export function RewindNotice({ mark }: { mark: RewindMark }) {
  const messages = mark.droppedMessages === 1 ? "1 message" : `${mark.droppedMessages} messages`;
  const from = mark.from ? ` from “${mark.from}”` : "";
  return (
    <div className="compaction-divider rewind-notice" role="status" data-testid={TID.rewindNotice} data-dropped={mark.droppedMessages}>
      <span className="compaction-divider-text">
        Rewound: {messages}
        {from} dropped. The model no longer sees them; your message is back in the field to edit.
      </span>
    </div>
  );
}
