// The window's remote projects: each opened one listed and (when its dialog was still open) shown,
// those opened before this start listed too (not linked until taken up again), the project and
// link of the conversation shown, and the dialog's state. Link states are listened to for as long
// as the window is up (a link may drop while another conversation is shown).
import { useCallback, useEffect, useState } from "react";
import { api, subscribeRemoteLink } from "../../shared/ipc";
import { messageOf } from "../../shared/format";
import { useChatStore } from "../../shared/store/store";
import { useListener } from "../../shared/useListener";
import { openSaved } from "../chat/transcript/readSaved";
import type { RemoteOpenValues } from "./RemoteOpenDialog";
import { linkDown, linkedProjects, NO_REMOTES, remoteOf, remembered, withLink, withOpened, type RemoteProject } from "./remoteStore";

const EMPTY: RemoteOpenValues = { target: "", transport: null };

/**
 * `activeId`: the conversation shown; `openRemote` lists a remote one (and shows it when asked);
 * `showChat` leaves Settings for the chat.
 */
export function useRemoteProjects(
  activeId: string | null,
  openRemote: OpenRemote,
  showChat: () => void,
) {
  const [remotes, setRemotes] = useState(NO_REMOTES);
  useListener(() => subscribeRemoteLink((link) => setRemotes((r) => withLink(r, link))), "remote links");
  useKnownRemotes(setRemotes, openRemote);
  const resume = useResume(setRemotes);
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
  const saved = useSavedThere(remotes, onOpened, openRemote, showChat);
  return {
    project: remoteOf(remotes, activeId),
    linked: linkedProjects(remotes),
    link: linkDown(remotes, activeId),
    dialog,
    openDialog: useCallback((values: RemoteOpenValues = EMPTY) => setDialog(values), []),
    closeDialog: useCallback(() => setDialog(null), []),
    onOpened,
    resume,
    saved,
    /** Opens conversation `id`, found by a search of the linked project of conversation `via`, there. */
    openFound: useCallback((via: string, id: string) => {
      const project = remotes.projects[via];
      return project ? saved.open(project, id) : Promise.reject(new Error("This remote project is no longer listed."));
    }, [remotes, saved]),
  };
}

/**
 * The conversations saved in a remote project there (their dialog, `of` the project it is open
 * for) and taking one up: shown when it is already linked here, else opened there with what was
 * said in it.
 */
function useSavedThere(
  remotes: typeof NO_REMOTES,
  onOpened: (project: RemoteProject, show: boolean) => void,
  openRemote: (id: string, target: string, show: boolean) => void,
  showChat: () => void,
) {
  const store = useChatStore();
  const [of, setOf] = useState<RemoteProject | null>(null);
  const open = useCallback(
    async (project: RemoteProject, id: string) => {
      const linked = remotes.projects[id];
      if (linked && remotes.links[id]?.state !== "closed") {
        openRemote(id, linked.target, true);
      } else {
        const opened = await api.remoteOpen(project.target, project.transport, id, project.remoteEnvKeys);
        onOpened({ ...opened, transport: project.transport }, true);
        await openSaved(store, opened.conversationId);
      }
      setOf(null);
      showChat();
    },
    [remotes, onOpened, openRemote, showChat, store],
  );
  return { of, show: setOf, close: useCallback(() => setOf(null), []), open };
}

/** Lists a remote conversation (titled `title` when the user named it), shown when `show`. */
type OpenRemote = (id: string, target: string, show: boolean, title?: string | null) => void;

type SetRemotes = (update: (r: typeof NO_REMOTES) => typeof NO_REMOTES) => void;

/** The remote projects opened before this start: listed, not linked. */
function useKnownRemotes(setRemotes: SetRemotes, openRemote: OpenRemote) {
  useEffect(() => {
    let live = true;
    api
      .remoteKnown()
      .then((known) => {
        if (!live) return;
        // Oldest first: each is put at the top of the list, so the newest ends there.
        for (const k of [...known].reverse()) {
          setRemotes((r) => remembered(r, k));
          openRemote(k.conversationId, k.target, false, k.title);
        }
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [setRemotes, openRemote]);
}

/** Takes up a remote project's conversation again there (after a restart, or a lost link), with what was said before. */
function useResume(setRemotes: SetRemotes) {
  const store = useChatStore();
  return useCallback(
    async (project: RemoteProject) => {
      const id = project.conversationId;
      setRemotes((r) => withLink(r, { conversationId: id, state: "connecting", detail: null, attempt: null }));
      try {
        const opened = await api.remoteOpen(project.target, project.transport, id, project.remoteEnvKeys);
        setRemotes((r) => withLink(withOpened(r, { ...opened, transport: project.transport }), { conversationId: id, state: "up", detail: null, attempt: null }));
        await openSaved(store, opened.conversationId);
      } catch (e) {
        setRemotes((r) => withLink(r, { conversationId: id, state: "closed", detail: messageOf(e), attempt: null }));
      }
    },
    [setRemotes, store],
  );
}
