// Today's answers across conversations, as the engine counted them (`usage_days` with the local
// day's bounds), asked when shown beside a conversation and again when one of its turns ends or
// another conversation is shown; not asked without one (nothing to show it beside).
import { useEffect, useState } from "react";
import { api, type ModelUsage } from "../../shared/ipc";
import { useTurnEnds } from "../../shared/store/useTurnEnds";

/** Where the local day of `now` starts and ends (a day of a clock change is 23 or 25 hours). */
export function dayBounds(now: Date): [number, number] {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const end = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return [start.getTime(), end.getTime()];
}

/**
 * Today's usage by model, shown beside `conversationId` (`running`: whether a turn of it runs);
 * null until it is known (or when the store cannot say).
 */
export function useTodayUsage(conversationId: string | null, running: boolean): readonly ModelUsage[] | null {
  const [models, setModels] = useState<readonly ModelUsage[] | null>(null);
  const turnEnds = useTurnEnds(running);
  useEffect(() => {
    if (conversationId === null) return;
    let live = true;
    api.usageDays(dayBounds(new Date())).then(
      (days) => {
        if (live) setModels(Array.isArray(days) ? (days[0]?.models ?? []) : null);
      },
      (e: unknown) => {
        console.warn("usage_days failed", e);
        if (live) setModels(null);
      },
    );
    return () => {
      live = false;
    };
  }, [conversationId, turnEnds]);
  return models;
}
