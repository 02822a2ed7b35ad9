// The conversations saved in a remote project on its machine (the top bar's "Conversations there"
// over a remote conversation), newest first, asked there when the dialog opens. The one shown is
// marked; another is taken up there with what was said in it, listed and shown like the first.
import { useEffect, useState } from "react";
import { api, type ConversationSummary } from "../../shared/ipc";
import { formatDay, formatClock, messageOf } from "../../shared/format";
import { TID } from "../../shared/testids";
import { Dialog } from "../../shared/ui/Dialog";
import type { RemoteProject } from "./remoteStore";

type Props = {
  project: RemoteProject;
  /** Take up the conversation `id` saved there (rejects with why it could not). */
  onOpen: (project: RemoteProject, id: string) => Promise<void>;
  onClose: () => void;
};

export function RemoteSavedDialog({ project, onOpen, onClose }: Props) {
  const [saved, setSaved] = useState<ConversationSummary[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [opening, setOpening] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.remoteConversations(project.conversationId).then(
      (found) => live && setSaved(found),
      (e: unknown) => live && setProblem(messageOf(e)),
    );
    return () => {
      live = false;
    };
  }, [project.conversationId]);
  const open = (id: string) => {
    setOpening(id);
    setProblem(null);
    onOpen(project, id).catch((e: unknown) => {
      setProblem(messageOf(e));
      setOpening(null);
    });
  };
  return (
    <Dialog label={`Conversations saved in ${project.target}`} testId={TID.remoteSaved} className="remote-saved" onClose={onClose}>
      <h2>Conversations in {project.target}</h2>
      <p className="muted">
        Saved on {project.host}, as {project.user}. One taken up here links to it there, with what was said in it.
      </p>
      {problem && (
        <p className="field-error" data-testid={TID.remoteSavedError} role="alert">
          {problem}
        </p>
      )}
      {saved === null && !problem && <p className="muted">Asking {project.host}…</p>}
      {saved && (
        <ul className="remote-saved-list">
          {saved.map((c) => {
            const current = c.id === project.conversationId;
            const when = new Date(c.updatedAtMs);
            return (
              <li key={c.id}>
                <button
                  type="button"
                  className="link"
                  data-testid={TID.remoteSavedItem}
                  data-id={c.id}
                  data-current={current}
                  disabled={current || opening !== null}
                  onClick={() => open(c.id)}
                >
                  {c.title || "Untitled"}
                </button>{" "}
                <span className="muted">
                  {formatDay(when)} {formatClock(when)} · {c.messageCount} {c.messageCount === 1 ? "message" : "messages"}
                  {current && " · shown now"}
                  {opening === c.id && " · linking…"}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Dialog>
  );
}
