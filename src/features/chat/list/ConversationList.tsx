import { useState, type ReactNode } from "react";
import { messageOf } from "../../../shared/format";
import { focusComposer } from "../../../shared/keyboard";
import { VisibleText } from "../../../shared/ui/VisibleText";
import { TID } from "../../../shared/testids";
import { ConversationSearch } from "./ConversationSearch";
import { RunningDot } from "./RunningDot";
import { SearchResults } from "./SearchResults";
import { SidebarToggle } from "./SidebarToggle";
import { useConversationSearch } from "./useConversationSearch";
import { useSearchChoice } from "./useSearchChoice";
import type { ConversationEntry } from "./useConversations";

/** Rename and delete, on the active conversation only (the others look as they always did). */
function RowActions({
  entry,
  onRename,
  onDelete,
}: {
  entry: ConversationEntry;
  onRename: () => void;
  onDelete: (id: string) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      {(entry.saved || entry.remote) && (
        <button
          type="button"
          className="conversation-action"
          data-testid={TID.conversationRename}
          title="Rename"
          aria-label={`Rename conversation ${entry.title}`}
          onClick={onRename}
        >
          <span aria-hidden>✎</span>
        </button>
      )}
      {!entry.remote && (
        <button
          type="button"
          className={`conversation-action${confirming ? " confirming" : ""}`}
          data-testid={TID.conversationDelete}
          title={confirming ? "Click again to delete" : "Delete"}
          // Words for a screen reader, not the glyph: what it deletes, and that a second press does.
          aria-label={confirming ? `Delete conversation ${entry.title}? Press again to delete` : `Delete conversation ${entry.title}`}
          onClick={() => (confirming ? onDelete(entry.id) : setConfirming(true))}
          onBlur={() => setConfirming(false)}
        >
          {confirming ? "Delete?" : <span aria-hidden>×</span>}
        </button>
      )}
    </>
  );
}

function RenameField({ entry, onDone }: { entry: ConversationEntry; onDone: (title: string | null) => void }) {
  const [title, setTitle] = useState(entry.title);
  return (
    <input
      className="conversation-rename"
      data-testid={TID.conversationRenameInput}
      aria-label="Conversation title"
      value={title}
      autoFocus
      onChange={(e) => setTitle(e.target.value)}
      onKeyDown={(e) => {
        if (e.key !== "Enter" && e.key !== "Escape") return;
        onDone(e.key === "Enter" ? title : null);
        // The field goes away with the focus in it: the caret goes back to the message field
        // (not to the page, where typing reaches nothing).
        focusComposer();
      }}
      onBlur={() => onDone(null)}
    />
  );
}

/** Opening what a search found: a remote project's there (`onOpenRemote`), with why it failed. */
function useOpenFound(onOpen: (entry: ConversationEntry) => void, onOpenRemote?: (via: string, id: string) => Promise<void>) {
  const [error, setError] = useState<string | null>(null);
  const open = (entry: ConversationEntry) => {
    setError(null);
    if (!entry.via || !onOpenRemote) return onOpen(entry);
    onOpenRemote(entry.via, entry.id).catch((e: unknown) => setError(`${entry.place ?? "The remote project"}: ${messageOf(e)}`));
  };
  return { open, error };
}

type ConversationListProps = {
  list: ConversationEntry[];
  activeId: string | null;
  /** Why the last rename or delete failed. */
  error?: string | null;
  onSelect: (id: string) => void;
  /** Opens a conversation a search found (which may be older than the list goes). */
  onOpen: (entry: ConversationEntry) => void;
  /** Opens conversation `id`, found by a search in the linked remote project of conversation `via`. */
  onOpenRemote?: (via: string, id: string) => Promise<void>;
  onNew: () => void;
  onRename?: (id: string, title: string) => void;
  onDelete?: (id: string) => void;
  /** Folds the list away (Ctrl+B brings it back). */
  onHide?: () => void;
  /** Shown under the list (the Undo of a delete). */
  footer?: ReactNode;
};

export function ConversationList({
  list,
  activeId,
  error,
  onSelect,
  onOpen,
  onOpenRemote,
  onNew,
  onRename,
  onDelete,
  onHide,
  footer,
}: ConversationListProps) {
  const [renaming, setRenaming] = useState<string | null>(null);
  const search = useConversationSearch();
  const found = useOpenFound(onOpen, onOpenRemote);
  const choice = useSearchChoice(search, found.open);
  return (
    <nav className="sidebar" aria-label="Conversations" data-testid={TID.conversationList}>
      <div className="sidebar-head">
        <button type="button" className="new-conversation" data-testid={TID.conversationNew} onClick={onNew}>
          + New conversation
        </button>
        {onHide && <SidebarToggle hidden={false} onToggle={onHide} />}
      </div>
      <ConversationSearch query={search.query} onChange={search.setQuery} results={choice} />
      {(error || found.error) && (
        <p className="conversation-error" role="alert" data-testid={TID.conversationError}>
          {error ?? found.error}
        </p>
      )}
      {search.active ? (
        <SearchResults answer={search.answer} error={search.error} activeId={activeId} onOpen={found.open} choice={choice} />
      ) : (
        <ul>
          {list.map((c) => (
            <li key={c.id} className="conversation-row">
              {renaming === c.id ? (
                <RenameField
                  entry={c}
                  onDone={(title) => {
                    setRenaming(null);
                    if (title !== null && title.trim() !== c.title) onRename?.(c.id, title);
                  }}
                />
              ) : (
                <button
                  type="button"
                  className={`conversation-item${c.id === activeId ? " active" : ""}${c.remote ? " remote" : ""}`}
                  title={c.remote ? `On another machine: ${c.place ?? c.title}` : undefined}
                  aria-current={c.id === activeId ? "page" : undefined}
                  data-testid={TID.conversationItem}
                  data-conversation-id={c.id}
                  onClick={() => onSelect(c.id)}
                >
                  <span className="conversation-title">
                    <VisibleText text={c.title} />
                  </span>
                  {c.place && c.place !== c.title && (
                    <span className="conversation-place">
                      <VisibleText text={c.place} />
                    </span>
                  )}
                  <RunningDot id={c.id} />
                </button>
              )}
              {/* A remote conversation is saved on its machine: renamed there, never deleted from here. */}
              {c.id === activeId && renaming !== c.id && onRename && onDelete && (
                <RowActions entry={c} onRename={() => setRenaming(c.id)} onDelete={onDelete} />
              )}
            </li>
          ))}
        </ul>
      )}
      {footer}
    </nav>
  );
}
