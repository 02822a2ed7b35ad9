// Settings → Hooks, the chosen project's own hooks (its `.claude/settings.json`): read-only, with
// whether they were approved, and the same buttons as the offer over the chat.
import { TID } from "../../shared/testids";
import { ProjectHooksOffer } from "./ProjectHooksOffer";
import { useProjectHooksOffer } from "./useProjectHooksOffer";
import { localPlace } from "../../shared/projectPlace";

export function ProjectHooksPart({ projectDir, savedCount }: { projectDir: string | null; savedCount: number }) {
  const { offer, error, busy, choose } = useProjectHooksOffer(projectDir ? localPlace(projectDir) : null, savedCount);
  return (
    <>
      <h4>The project&apos;s hooks</h4>
      {!projectDir ? (
        <p className="muted small">No project folder is chosen.</p>
      ) : offer ? (
        <ProjectHooksOffer offer={offer} error={error} busy={busy} onChoose={(digest, approve) => void choose(digest, approve)} />
      ) : error ? (
        <p className="field-error" role="alert" data-testid={TID.hooksOfferError}>
          {error}
        </p>
      ) : (
        <p className="muted small">
          This project names no hooks (none in its <code>.claude/settings.json</code>).
        </p>
      )}
    </>
  );
}
