// The project's own hooks (its `.claude/settings.json`), offered as its `.mcp.json` is: the file,
// every command exactly as it would run, what could not be read, and what running them means. None
// runs before the user approves exactly these (the digest), nor after the file changes until they
// approve again (docs/HOOKS.md).
import type { ProjectHooksOffer as Offer } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { VisibleText, WRAP } from "../../shared/ui/VisibleText";
import "./hooks.css";

/** What the offer's state means, in words. */
function stateWords(offer: Offer): string {
  switch (offer.state) {
    case "approved":
      return "You approved these hooks: they run in this project.";
    case "changed":
      return "They changed since you approved them: they do not run until you approve them again.";
    default:
      return "They do not run until you approve them.";
  }
}

export function ProjectHooksOffer({
  offer,
  error,
  busy,
  onChoose,
  there = null,
  className = "",
}: {
  offer: Offer;
  /** Why the offer could not be read or the answer was refused. */
  error: string | null;
  /** An answer is being saved. */
  busy: boolean;
  onChoose: (digest: string, approve: boolean) => void;
  /** The machine the project is on, when it is not this one. */
  there?: string | null;
  className?: string;
}) {
  const approved = offer.state === "approved";
  return (
    <div className={`hooks-offer ${className}`} data-testid={TID.hooksOffer} data-state={offer.state} role="region" aria-label="The project's hooks">
      <p>
        <strong>This project has its own hooks</strong>, in <code style={WRAP}>{offer.file}</code>
        {there && (
          <>
            {" "}
            on <strong data-testid={TID.hooksOfferThere}>{there}</strong>
          </>
        )}
        . {stateWords(offer)}
      </p>
      {offer.commands.length > 0 && (
        <ul className="hooks-offer-commands">
          {offer.commands.map((command, i) => (
            <li key={i} style={WRAP} data-testid={TID.hooksOfferCommand}>
              <VisibleText text={command} />
            </li>
          ))}
        </ul>
      )}
      {offer.problems.length > 0 && (
        <ul>
          {offer.problems.map((problem, i) => (
            <li key={i} className="field-error" data-testid={TID.hooksOfferProblem}>
              <VisibleText text={problem} />
            </li>
          ))}
        </ul>
      )}
      <p className="muted">
        They run in the project&apos;s box{there ? " there, as that machine's user" : ""}; an allow they say grants nothing. A repository you cloned decides what is in
        this file, so only run them if you trust it.
      </p>
      <div className="hooks-offer-actions">
        {!approved && offer.commands.length > 0 && (
          <button type="button" className="primary" data-testid={TID.hooksOfferRun} disabled={busy} onClick={() => onChoose(offer.digest, true)}>
            Run these hooks
          </button>
        )}
        <button
          type="button"
          className={approved ? "link" : ""}
          data-testid={TID.hooksOfferDecline}
          disabled={busy}
          onClick={() => onChoose(offer.digest, false)}
        >
          {approved ? "Stop running them" : "Don't run"}
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert" data-testid={TID.hooksOfferError}>
          {error}
        </p>
      )}
    </div>
  );
}
