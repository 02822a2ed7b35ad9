// The conversation a transcript shows, for what deep inside it acts on that conversation's project:
// a remote project's checkpoints are on its machine, and the commands go there by this id
// (docs/REMOTE.md). Null outside a transcript: the project open here.
import { createContext, useContext } from "react";

export const ConversationIdContext = createContext<string | null>(null);

export function useConversationId(): string | null {
  return useContext(ConversationIdContext);
}
