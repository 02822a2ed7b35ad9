import { useEffect, useState } from "react";

/** Whole seconds left until `startedAt + seconds`, ticking; 0 once it is over. */
export function useCountdown(startedAt: number, seconds: number): number {
  const left = () => Math.max(0, Math.ceil((startedAt + seconds * 1000 - Date.now()) / 1000));
  const [remaining, setRemaining] = useState(left);
  useEffect(() => {
    setRemaining(left());
    const timer = setInterval(() => {
      const r = left();
      setRemaining(r);
      if (r === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [startedAt, seconds]);
  return remaining;
}
