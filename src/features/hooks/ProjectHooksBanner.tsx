// Over the chat: the project's own hooks while they wait for an answer (new, or changed since
// approved) — the project open here, or, over a remote project's conversation, that project's, read
// on its machine. "Don't run" takes the offer out of view for those exact hooks (their digest), here and
// after a restart; Settings → Hooks still shows them with the same buttons, and a change to the
// file offers them again.
import { useState } from "react";
import { TID } from "../../shared/testids";
import { ProjectHooksOffer } from "./ProjectHooksOffer";
import type { ProjectPlace } from "../../shared/projectPlace";
import { useProjectHooksOffer } from "./useProjectHooksOffer";

const DECLINED_KEY = "warden.hooksDeclined";

function declinedList(): string[] {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(DECLINED_KEY) ?? "[]");
    return Array.isArray(saved) ? saved.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

function remember(key: string) {
  try {
    // The last few are enough: an older digest is of hooks that changed since.
    localStorage.setItem(DECLINED_KEY, JSON.stringify([...declinedList().filter((k) => k !== key), key].slice(-50)));
  } catch {
    // Not remembered: the offer comes back at the next start.
  }
}

export function ProjectHooksBanner({ place }: { place: ProjectPlace | null }) {
  const { offer, error, busy, choose } = useProjectHooksOffer(place);
  const [declined, setDeclined] = useState(declinedList);
  if (!place) return null;
  const projectDir = place.key;
  if (!offer) {
    return error ? (
      <p className="field-error hooks-offer-banner" role="alert" data-testid={TID.hooksOfferError}>
        {error}
      </p>
    ) : null;
  }
  const key = `${projectDir}\n${offer.digest}`;
  if (offer.state === "approved" || declined.includes(key)) return null;
  const onChoose = (digest: string, approve: boolean) =>
    void choose(digest, approve).then((done) => {
      if (done && !approve) {
        const declinedKey = `${projectDir}\n${digest}`;
        remember(declinedKey);
        setDeclined((list) => [...list, declinedKey]);
      }
    });
  return (
    <ProjectHooksOffer offer={offer} error={error} busy={busy} onChoose={onChoose} there={place.there} className="hooks-offer-banner" />
  );
}
