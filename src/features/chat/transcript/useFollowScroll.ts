import { useEffect, useLayoutEffect, useRef, useState, type UIEvent } from "react";
import type { Conversation } from "../../../shared/store/types";
import type { MessageWindow } from "./useMessageWindow";

/**
 * The messages' scrolling: follow the stream while the user is at the bottom, leave them be when
 * they scrolled up (and offer the way down when something arrives), and mount older messages when
 * they reach the top, keeping what they were reading in place.
 */
export function useFollowScroll(conversation: Conversation, win: MessageWindow) {
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  // Distance from the bottom to keep when older messages are mounted above the viewport.
  const keepFromBottom = useRef<number | null>(null);

  // Something arrived while the user was scrolled up: offer the way down instead of pulling them.
  const [unseen, setUnseen] = useState(false);

  // Follow the stream while the user is at the bottom; leave them be when they scrolled up.
  useEffect(() => {
    const el = scroller.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  });
  useEffect(() => {
    if (!pinned.current) setUnseen(true);
  }, [conversation]);

  const toBottom = () => {
    pinned.current = true;
    win.setFollowing(true);
    setUnseen(false);
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && keepFromBottom.current !== null) {
      el.scrollTop = el.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    }
  }, [win.start]);

  const showEarlier = () => {
    const el = scroller.current;
    if (el) keepFromBottom.current = el.scrollHeight - el.scrollTop;
    pinned.current = false;
    win.showEarlier();
  };

  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
    win.setFollowing(pinned.current);
    if (pinned.current) setUnseen(false);
    if (el.scrollTop < 200 && win.start > 0 && keepFromBottom.current === null) showEarlier();
  };

  return { scroller, unseen, toBottom, showEarlier, onScroll };
}

export type FollowScroll = ReturnType<typeof useFollowScroll>;
