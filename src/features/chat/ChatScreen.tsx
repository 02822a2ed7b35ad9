import { useEffect } from "react";
import { api } from "../../shared/ipc";
import { focusComposer, shortcutOf } from "../../shared/keyboard";
import { useChatStore } from "../../shared/store/store";
import { ApprovalHost } from "../approvals/ApprovalHost";
import { ConversationList } from "./ConversationList";
import { ConversationView } from "./ConversationView";
import { useConversations } from "./useConversations";
import "./chat.css";

export function ChatScreen({ onOpenSettings }: { onOpenSettings: () => void }) {
  const store = useChatStore();
  const { list, activeId, setActiveId, create, titleDraft, rename, remove, error } = useConversations();

  // A conversation opened for the first time in this window: fetch what was said before, then
  // which checkpoints of the project came before its calls (a saved history does not say).
  useEffect(() => {
    if (!activeId || store.getState().conversations[activeId]) return;
    let live = true;
    api
      .chatHistory(activeId)
      .then(async (history) => {
        if (!live || !history.length) return;
        store.dispatch({ type: "history-loaded", conversationId: activeId, history });
        const checkpoints = await api.checkpointList(activeId);
        if (live && checkpoints.length) store.dispatch({ type: "checkpoints-loaded", conversationId: activeId, checkpoints });
      })
      .catch(() => {
        // A new conversation has no history yet; without checkpoints, nothing can be restored.
      });
    return () => {
      live = false;
    };
  }, [activeId, store]);

  // Ctrl/Cmd+N: a new conversation; Ctrl/Cmd+L: the message field.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const shortcut = shortcutOf(e);
      if (shortcut === "newConversation") {
        e.preventDefault();
        create();
      } else if (shortcut === "focusComposer") {
        e.preventDefault();
        focusComposer();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [create]);

  return (
    <div className="chat-screen">
      <ConversationList
        list={list}
        activeId={activeId}
        error={error}
        onSelect={setActiveId}
        onNew={create}
        onRename={(id, title) => void rename(id, title)}
        onDelete={(id) => void remove(id)}
      />
      <div className="chat-main">
        {activeId && (
          <ConversationView
            key={activeId}
            conversationId={activeId}
            onOpenSettings={onOpenSettings}
            onFirstMessage={(text) => titleDraft(activeId, text)}
            aboveComposer={<ApprovalHost activeConversationId={activeId} onOpenConversation={setActiveId} />}
          />
        )}
      </div>
    </div>
  );
}
