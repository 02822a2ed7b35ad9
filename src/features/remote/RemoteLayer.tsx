// What the window shows of remote projects above the chat: the link's banner for the project shown,
// and the dialog that opens one (when it is open).
import { RemoteLinkBanner } from "./RemoteLinkBanner";
import { RemoteOpenDialog } from "./RemoteOpenDialog";
import type { useRemoteProjects } from "./useRemoteProjects";

export function RemoteLayer({
  remote,
  showBanner,
  onDialogClosed,
}: {
  remote: ReturnType<typeof useRemoteProjects>;
  /** The chat is shown (the banner belongs to it). */
  showBanner: boolean;
  /** After the dialog closes (the caret goes back to the message field). */
  onDialogClosed: () => void;
}) {
  return (
    <>
      {showBanner && <RemoteLinkBanner project={remote.project} link={remote.link} onReopen={remote.openDialog} />}
      {remote.dialog && (
        <RemoteOpenDialog
          key={`${remote.dialog.target}\n${remote.dialog.transport ?? ""}`}
          initial={remote.dialog}
          onOpened={remote.onOpened}
          onClose={() => {
            remote.closeDialog();
            onDialogClosed();
          }}
        />
      )}
    </>
  );
}
