import type { HostReached } from "../../shared/ipc";
import { TID } from "../../shared/testids";

/** Where a command's network went: the hosts reached, and each one refused with why. */
export function NetworkDecisions({ decisions = [] }: { decisions: readonly HostReached[] | undefined }) {
  if (decisions.length === 0) return null;
  return (
    <ul className="tool-network small" data-testid={TID.toolNetwork}>
      {decisions.map((d) => (
        <li
          key={`${d.host}:${d.port}`}
          className={d.allowed ? "tool-network-reached" : "tool-network-refused"}
          data-allowed={d.allowed}
        >
          <span aria-hidden>{d.allowed ? "⇢ " : "⊘ "}</span>
          <code>
            {d.host}:{d.port}
          </code>
          {!d.allowed && d.why && <span className="muted"> — {d.why}</span>}
        </li>
      ))}
    </ul>
  );
}
