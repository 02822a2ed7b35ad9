import type { SandboxStatus } from "../../shared/ipc";
import { formatBytes } from "../../shared/format";
import { TID } from "../../shared/testids";
import { PathDetails } from "./PathDetails";

/**
 * How commands are contained on this machine (`status`; null while asked, `error` when that
 * failed): what they may write, the package caches and this project's layer over them, what they
 * see of the home folder, and what is hidden from them.
 */
export function SandboxContainment({
  status,
  error,
  clearing,
  clearError,
  onClearLayer,
}: {
  status: SandboxStatus | null;
  error: string | null;
  /** The project's cache layer is being removed; `clearError` why that failed. */
  clearing: boolean;
  clearError: string | null;
  onClearLayer: () => void;
}) {
  const readable = status?.readable ?? [];
  return (
    <>
      <p data-testid={TID.sandboxMechanism} className={status && !status.contained ? "field-error" : "muted"}>
        {status === null
          ? (error ?? "Checking how commands are contained…")
          : status.contained
            ? `Commands run in an OS sandbox (${status.mechanism}): they write only in the project${
                status.writable.length ? ", the folders below" : ""
              } and a private /tmp${
                status.caches.length
                  ? status.layered
                    ? " (what they write to your package caches goes to this project's own layer, never to your caches)"
                    : " (your package caches are read-only)"
                  : ""
              }, see of your home only the toolchains below (and what you add), cannot see your secrets, and have no network unless allowed — and then only through Warden's proxy, which asks you about each host the rules below do not name.`
            : `Commands are not contained on this machine (${status.mechanism}). They run with your full access, so every command asks first, even in Autonomous.`}
      </p>
      {status?.contained && status.writable.length > 0 && (
        <PathDetails summary="Other folders commands may write" paths={status.writable} />
      )}
      {status?.contained && status.caches.length > 0 && (
        <PathDetails
          summary={<>Your package caches ({status.caches.length}, read-only{status.layered ? ", with this project's layer over them" : ""})</>}
          paths={status.caches}
        />
      )}
      {status?.contained && status.layered && (
        <p className="muted" data-testid={TID.sandboxCacheLayer}>
          This project&apos;s cache layer (downloads and unpacked packages its commands wrote):{" "}
          {formatBytes(status.cacheLayerBytes)}{" "}
          <button
            type="button"
            data-testid={TID.sandboxCacheLayerClear}
            disabled={clearing || status.cacheLayerBytes === 0}
            onClick={onClearLayer}
          >
            Clear
          </button>
          {clearError && <span className="field-error"> {clearError}</span>}
        </p>
      )}
      {status?.contained && !status.layered && status.caches.length > 0 && status.layerUnavailable && (
        <p className="muted" data-testid={TID.sandboxCacheLayer}>
          No private cache layer on this machine ({status.layerUnavailable}): your package caches stay read-only in
          the box, so a command that must download into one fails. Offline builds from them still work.
        </p>
      )}
      {status?.contained && readable.length > 0 && (
        <PathDetails summary={<>What commands see of your home ({readable.length}, read-only)</>} paths={readable} />
      )}
      {status?.contained && status.hidden.length > 0 && (
        <PathDetails summary={<>Hidden from commands ({status.hidden.length})</>} paths={status.hidden} />
      )}
    </>
  );
}
