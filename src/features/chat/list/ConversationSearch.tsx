// The search field at the top of the conversation list. Esc empties it (the list comes back).
import { TID } from "../../../shared/testids";

export function ConversationSearch({ query, onChange }: { query: string; onChange: (query: string) => void }) {
  return (
    <input
      type="search"
      className="conversation-search"
      data-testid={TID.conversationSearch}
      aria-label="Search conversations"
      placeholder="Search conversations"
      value={query}
      spellCheck={false}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        // Handled here, so a running answer is not stopped by the same key.
        if (e.key === "Escape" && query) {
          e.preventDefault();
          onChange("");
        }
      }}
    />
  );
}
