// What marking a hook "runs outside the box" means, said wherever the switch is on.
import { TID } from "../../shared/testids";

export function OutsideBoxWarning() {
  return (
    <p className="field-warning small" role="note" data-testid={TID.hookOutsideWarning}>
      Outside the box it runs with your full access (your files, your network, your credentials), and each run says so
      in the conversation.
    </p>
  );
}
