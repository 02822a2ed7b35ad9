import { useEffect } from "react";
import type { PendingApproval } from "../../shared/store/types";
import { useCountdown } from "./useCountdown";

/** How long an approval card has left to be answered. */
export interface ApprovalTimer {
  /** 0 seconds in the request is no time limit (the setting "never"): the card waits for the answer. */
  limited: boolean;
  /** Whole seconds left. */
  remaining: number;
  expired: boolean;
  /** The last ten seconds are shown as urgent, so a request about to lapse is noticed. */
  urgent: boolean;
}

/** The card's countdown; `onExpire` is told (the confirmation's id) when it runs out. */
export function useApprovalTimer(pending: PendingApproval, onExpire: (confirmId: string) => void): ApprovalTimer {
  const { request } = pending;
  const limited = request.timeoutSecs > 0;
  const remaining = useCountdown(pending.receivedAt, limited ? request.timeoutSecs : Number.MAX_SAFE_INTEGER / 1000);
  const expired = limited && remaining === 0;
  const urgent = limited && !expired && remaining <= 10;

  useEffect(() => {
    if (expired) onExpire(request.confirmId);
  }, [expired, onExpire, request.confirmId]);

  return { limited, remaining, expired, urgent };
}
