// A saved conversation as the window reopens it: its messages, and when each was written and by
// which model. The stamps only decorate: a conversation whose stamps cannot be read still opens.
import { api, type HistoryMessage, type MessageStamp } from "../../shared/ipc";

export async function readSaved(conversationId: string): Promise<{ history: HistoryMessage[]; stamps: MessageStamp[] }> {
  const [history, stamps] = await Promise.all([
    api.chatHistory(conversationId),
    api.chatMessageStamps(conversationId).catch(() => null),
  ]);
  return { history, stamps: Array.isArray(stamps) ? stamps : [] };
}
