// A link in model text, or to a provider's key page. Clicking shows the whole address first (a
// label can say one site and point at another) and opens it in the system browser only when asked;
// the window itself never navigates.
import { useState, type ReactNode } from "react";
import { api } from "../ipc";
import { TID } from "../testids";
import { CopyButton } from "./CopyButton";
import { messageOf } from "../format";

export function ExternalLink({ href, children }: { href: string | null | undefined; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!href) return <span className="md-link">{children}</span>;
  const web = /^https?:\/\//i.test(href);
  return (
    <span className="external-link">
      <button
        type="button"
        className="md-link link"
        data-testid={TID.externalLink}
        title={href}
        aria-expanded={open}
        onClick={() => {
          setOpen(!open);
          setError(null);
        }}
      >
        {children}
      </button>
      {open && (
        <span className="link-confirm" role="group" aria-label="Open link" data-testid={TID.linkConfirm}>
          <span className="link-address" data-testid={TID.linkAddress}>
            {href}
          </span>
          {web ? (
            <button
              type="button"
              className="primary"
              data-testid={TID.linkOpen}
              autoFocus
              onClick={() => {
                Promise.resolve()
                  .then(() => api.openLink(href))
                  .then(
                    () => setOpen(false),
                    (e: unknown) => setError(messageOf(e)),
                  );
              }}
            >
              Open in browser
            </button>
          ) : (
            <span className="muted small">Not a web address: it is not opened.</span>
          )}
          <CopyButton text={href} label="Copy address" />
          <button type="button" className="link" onClick={() => setOpen(false)}>
            Cancel
          </button>
          {error && (
            <span className="field-error" role="alert">
              {error}
            </span>
          )}
        </span>
      )}
    </span>
  );
}
