// A small external store for ChatState, read from React with useSyncExternalStore.
import { createContext, createElement, useContext, useSyncExternalStore, type ReactNode } from "react";
import { initialChatState, reduce } from "./reducer";
import type { Action, ChatState } from "./types";

export interface ChatStore {
  getState(): ChatState;
  dispatch(action: Action): void;
  /** Fold many actions and notify once (a burst of stream deltas). */
  dispatchMany(actions: readonly Action[]): void;
  subscribe(listener: () => void): () => void;
}

export function createChatStore(initial: ChatState = initialChatState): ChatStore {
  let state = initial;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  return {
    getState: () => state,
    dispatch(action) {
      const next = reduce(state, action);
      if (next !== state) {
        state = next;
        notify();
      }
    },
    dispatchMany(actions) {
      let next = state;
      for (const a of actions) next = reduce(next, a);
      if (next !== state) {
        state = next;
        notify();
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app's store; tests pass their own through ChatStoreProvider. */
export const appChatStore = createChatStore();

const ChatStoreContext = createContext<ChatStore>(appChatStore);

export function ChatStoreProvider({ store, children }: { store: ChatStore; children: ReactNode }) {
  return createElement(ChatStoreContext.Provider, { value: store }, children);
}

export function useChatStore(): ChatStore {
  return useContext(ChatStoreContext);
}

/** Subscribe to a slice. The selector must return stored objects (or primitives), not fresh ones. */
export function useChat<T>(selector: (s: ChatState) => T): T {
  const store = useChatStore();
  return useSyncExternalStore(store.subscribe, () => selector(store.getState()));
}
