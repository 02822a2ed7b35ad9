import { TID } from "../../../shared/testids";

/** The composer's last button: Stop while a turn runs, Send otherwise. */
export function SendStop({
  running,
  canSend,
  onSend,
  onStop,
}: {
  running: boolean;
  canSend: boolean;
  onSend: () => void;
  onStop: () => void;
}) {
  return running ? (
    <button type="button" className="danger" data-testid={TID.stop} onClick={onStop}>
      Stop
    </button>
  ) : (
    <button type="button" className="primary" data-testid={TID.send} disabled={!canSend} onClick={onSend}>
      Send
    </button>
  );
}
