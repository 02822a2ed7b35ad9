// A key that changes once per turn, when it ends: what the engine keeps of a turn (the answers'
// usage, the grants given during it) is saved by then, and nothing of it changed when the turn
// began. Views that ask the engine again after a turn key their request on it, so a turn costs
// one request each, not one at its start and one at its end.
import { useState } from "react";

/** How many times `running` went from true to false while the caller was mounted. */
export function useTurnEnds(running: boolean): number {
  const [seen, setSeen] = useState({ running, ends: 0 });
  if (seen.running === running) return seen.ends;
  // React's pattern for state derived from the previous render: set during render, re-rendered
  // before anything is shown.
  const next = { running, ends: seen.ends + (seen.running ? 1 : 0) };
  setSeen(next);
  return next.ends;
}
