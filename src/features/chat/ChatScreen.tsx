import { useEffect, useState } from "react";
import { useChatStore } from "../../shared/store/store";
import { TID } from "../../shared/testids";
import { ApprovalHost } from "../approvals/ApprovalHost";
import { ConversationList } from "./list/ConversationList";
import { ConversationView } from "./transcript/ConversationView";
import type { ProjectPlace } from "../../shared/projectPlace";
import { openSaved } from "./transcript/readSaved";
import { DeleteUndoNotice } from "./list/DeleteUndoNotice";
import { SidebarToggle } from "./list/SidebarToggle";
import type { ModelChoice } from "./transcript/ModelSwitch";
import { useChatShortcuts } from "./useChatShortcuts";
import { useConversations } from "./list/useConversations";
import "./chat.css";

const SIDEBAR_KEY = "warden.sidebarHidden";

/** Whether the conversation list is folded away, remembered across starts. */
function useSidebarHidden(): [boolean, (hidden: boolean) => void] {
  const [hidden, setHidden] = useState(() => {
    try {
      return localStorage.getItem(SIDEBAR_KEY) === "1";
    } catch {
      return false;
    }
  });
  const set = (next: boolean) => {
    setHidden(next);
    try {
      localStorage.setItem(SIDEBAR_KEY, next ? "1" : "0");
    } catch {
      // Not remembered; the choice holds until the window closes.
    }
  };
  return [hidden, set];
}

/** The conversation list and which one is shown (`useConversations`). */
export type Conversations = ReturnType<typeof useConversations>;

type ChatScreenProps = {
  onOpenSettings: () => void;
  /** Settings at a section (`/permissions` in the composer). */
  onOpenSettingsAt?: (section: "permissions") => void;
  /** The project folder (null: none chosen), for the composer's slash commands and skills. */
  projectDir?: string | null;
  /** Over a remote project's conversation: where its skills and commands are read (null: not linked). */
  place?: ProjectPlace | null;
  modelChoice?: ModelChoice;
  /**
   * The list and the conversation shown, kept by whoever shows this screen, so they outlive it:
   * Settings replace the chat for a while, and a new conversation not sent yet (it is not saved,
   * so the engine does not list it) must be there, with its draft, when they close.
   */
  conversations?: Conversations;
  /** Opens a conversation the list's search found in a linked remote project (`via` its link's conversation), there. */
  onOpenRemoteFound?: (via: string, id: string) => Promise<void>;
};

export function ChatScreen(props: ChatScreenProps) {
  return props.conversations ? <ChatScreenOf {...props} conversations={props.conversations} /> : <ChatScreenOwnList {...props} />;
}

/** The chat screen keeping its own list (while it is shown). */
function ChatScreenOwnList(props: ChatScreenProps) {
  return <ChatScreenOf {...props} conversations={useConversations()} />;
}

function ChatScreenOf({
  onOpenSettings,
  onOpenSettingsAt,
  projectDir,
  place,
  modelChoice,
  conversations,
  onOpenRemoteFound,
}: ChatScreenProps & { conversations: Conversations }) {
  const store = useChatStore();
  const [sidebarHidden, setSidebarHidden] = useSidebarHidden();
  const { list, activeId, setActiveId, open, create, titleDraft, rename, remove, restore, deleted, dismissDeleted, error } =
    conversations;

  // A conversation opened for the first time in this window: fetch what was said before (read-only
  // when it cannot be read whole), where it was last compacted and the project's checkpoints.
  useEffect(() => {
    if (!activeId || store.getState().conversations[activeId]) return;
    let live = true;
    void openSaved(store, activeId, () => live);
    return () => {
      live = false;
    };
  }, [activeId, store]);

  useChatShortcuts(create, sidebarHidden, setSidebarHidden);

  return (
    <div className="chat-screen">
      {sidebarHidden ? (
        <nav className="sidebar-rail" aria-label="Conversations">
          <SidebarToggle hidden onToggle={() => setSidebarHidden(false)} />
          <button type="button" data-testid={TID.conversationNew} aria-label="New conversation" title="New conversation (Ctrl+N)" onClick={create}>
            +
          </button>
        </nav>
      ) : (
        <ConversationList
          list={list}
          activeId={activeId}
          error={error}
          onSelect={setActiveId}
          onOpen={open}
          onOpenRemote={onOpenRemoteFound}
          onNew={create}
          onRename={(id, title) => void rename(id, title)}
          onDelete={(id) => void remove(id)}
          onHide={() => setSidebarHidden(true)}
          footer={
            deleted && (
              <DeleteUndoNotice
                key={deleted.serial}
                title={deleted.title}
                onUndo={() => restore(deleted.id)}
                onDone={() => dismissDeleted(deleted.serial)}
              />
            )
          }
        />
      )}
      <div className="chat-main">
        {activeId && (
          <ConversationView
            key={activeId}
            conversationId={activeId}
            onOpenSettings={onOpenSettings}
            onFirstMessage={(text) => titleDraft(activeId, text)}
            modelChoice={modelChoice}
            slash={{ projectDir, place, actions: { newConversation: create, openSettingsAt: onOpenSettingsAt } }}
            aboveComposer={<ApprovalHost activeConversationId={activeId} onOpenConversation={setActiveId} />}
          />
        )}
      </div>
    </div>
  );
}
