// The window's remote projects: each opened one listed and (when its dialog was still open) shown,
// the project and link of the conversation shown, and the dialog's state. Link states are listened
// to for as long as the window is up (a link may drop while another conversation is shown).
import { useCallback, useState } from "react";
import { subscribeRemoteLink } from "../../shared/ipc";
import { useListener } from "../../shared/useListener";
import type { RemoteOpenValues } from "./RemoteOpenDialog";
import { linkDown, NO_REMOTES, remoteOf, withLink, withOpened, type RemoteProject } from "./remoteStore";

const EMPTY: RemoteOpenValues = { target: "", transport: null };

/**
 * `activeId`: the conversation shown; `openRemote` lists a remote one (and shows it when asked);
 * `showChat` leaves Settings for the chat.
 */
export function useRemoteProjects(
  activeId: string | null,
  openRemote: (id: string, target: string, show: boolean) => void,
  showChat: () => void,
) {
  const [remotes, setRemotes] = useState(NO_REMOTES);
  useListener(() => subscribeRemoteLink((link) => setRemotes((r) => withLink(r, link))), "remote links");
  // The dialog, when open: what it opened with (empty, or a lost project's to open it again).
  const [dialog, setDialog] = useState<RemoteOpenValues | null>(null);
  const onOpened = useCallback(
    (project: RemoteProject, show: boolean) => {
      setRemotes((r) => withOpened(r, project));
      openRemote(project.conversationId, project.target, show);
      if (!show) return;
      setDialog(null);
      showChat();
    },
    [openRemote, showChat],
  );
  return {
    project: remoteOf(remotes, activeId),
    link: linkDown(remotes, activeId),
    dialog,
    openDialog: useCallback((values: RemoteOpenValues = EMPTY) => setDialog(values), []),
    closeDialog: useCallback(() => setDialog(null), []),
    onOpened,
  };
}
