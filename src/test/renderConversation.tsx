// One conversation rendered as the chat screen shows it, with the store the test drives.
import { render } from "@testing-library/react";
import type { ComponentProps } from "react";
import { ConversationView } from "../features/chat/transcript/ConversationView";
import { ChatStoreProvider, type ChatStore } from "../shared/store/store";

export function renderConversation(store: ChatStore, props: ComponentProps<typeof ConversationView>) {
  return render(
    <ChatStoreProvider store={store}>
      <ConversationView {...props} />
    </ChatStoreProvider>,
  );
}
