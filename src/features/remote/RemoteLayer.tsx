// What the window shows of remote projects above the chat: the link's banner for the project shown,
// the dialog that opens one (when it is open), the conversations saved in one there (when asked),
// and what ssh asks while it connects.
import { RemoteLinkBanner } from "./RemoteLinkBanner";
import { RemoteOpenDialog } from "./RemoteOpenDialog";
import { RemoteSavedDialog } from "./RemoteSavedDialog";
import { SshQuestionDialog } from "./SshQuestion";
import type { useRemoteProjects } from "./useRemoteProjects";
import { useSshQuestions } from "./useSshQuestions";

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
  const ssh = useSshQuestions();
  return (
    <>
      {showBanner && <RemoteLinkBanner project={remote.project} link={remote.link} onReopen={remote.openDialog} onResume={(p) => void remote.resume(p)} />}
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
      {remote.saved.of && (
        <RemoteSavedDialog
          project={remote.saved.of}
          onOpen={remote.saved.open}
          onClose={() => {
            remote.saved.close();
            onDialogClosed();
          }}
        />
      )}
      {ssh.question && <SshQuestionDialog key={ssh.question.id} question={ssh.question} onAnswer={ssh.answer} />}
      {ssh.problem && (
        <p className="field-error" role="alert">
          {ssh.problem}
        </p>
      )}
    </>
  );
}
