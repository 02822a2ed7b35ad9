import { useState, type ReactNode } from "react";
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
      {entry.saved && (
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

type ConversationListProps = {
  list: ConversationEntry[];
  activeId: string | null;
  /** Why the last rename or delete failed. */
  error?: string | null;
  onSelect: (id: string) => void;
  /** Opens a conversation a search found (which may be older than the list goes). */
  onOpen: (entry: ConversationEntry) => void;
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
  onNew,
  onRename,
  onDelete,
  onHide,
  footer,
}: ConversationListProps) {
  const [renaming, setRenaming] = useState<string | null>(null);
  const search = useConversationSearch();
  const choice = useSearchChoice(search, onOpen);
  return (
    <nav className="sidebar" aria-label="Conversations" data-testid={TID.conversationList}>
      <div className="sidebar-head">
        <button type="button" className="new-conversation" data-testid={TID.conversationNew} onClick={onNew}>
          + New conversation
        </button>
        {onHide && <SidebarToggle hidden={false} onToggle={onHide} />}
      </div>
      <ConversationSearch query={search.query} onChange={search.setQuery} results={choice} />
      {error && (
        <p className="conversation-error" role="alert" data-testid={TID.conversationError}>
          {error}
        </p>
      )}
      {search.active ? (
        <SearchResults answer={search.answer} error={search.error} activeId={activeId} onOpen={onOpen} choice={choice} />
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
                  title={c.remote ? `On another machine: ${c.title}` : undefined}
                  aria-current={c.id === activeId ? "page" : undefined}
                  data-testid={TID.conversationItem}
                  data-conversation-id={c.id}
                  onClick={() => onSelect(c.id)}
                >
                  <span className="conversation-title">
                    <VisibleText text={c.title} />
                  </span>
                  <RunningDot id={c.id} />
                </button>
              )}
              {/* A remote conversation is saved on its machine: neither renamed nor deleted from here. */}
              {c.id === activeId && renaming !== c.id && !c.remote && onRename && onDelete && (
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
