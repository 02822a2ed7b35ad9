import type { JsonValue } from "../../shared/ipc";
import { TID } from "../../shared/testids";

/** A host the session's proxy reached or refused while a call ran (`network` in its metadata). */
export interface NetworkDecision {
  host: string;
  port: number;
  allowed: boolean;
  why: string | null;
}

export function networkDecisionsOf(metadata: JsonValue | null): NetworkDecision[] {
  if (!metadata || typeof metadata !== "object" || Array.isArray(metadata)) return [];
  const list = metadata.network;
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry) => {
    if (!entry || typeof entry !== "object" || Array.isArray(entry)) return [];
    const { host, port, allowed, why } = entry;
    if (typeof host !== "string" || typeof port !== "number" || typeof allowed !== "boolean") return [];
    return [{ host, port, allowed, why: typeof why === "string" ? why : null }];
  });
}

/** Where a command's network went: the hosts reached, and each one refused with why. */
export function NetworkDecisions({ metadata }: { metadata: JsonValue | null }) {
  const decisions = networkDecisionsOf(metadata);
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
