// Whether the model that answers reads images, asked of the provider's model list only once the
// user attaches one (so a conversation without images costs no request). Null while not known:
// the provider's default model, a model the list does not name, a list that failed.
import { useEffect, useState } from "react";
import { api, type ModelEntry, type ProviderId } from "../../../shared/ipc";
import type { ModelChoice } from "../transcript/ModelSwitch";

export function useTakesImages(choice: ModelChoice | undefined, wanted: boolean): boolean | null {
  const provider = choice?.provider ?? null;
  const model = choice?.model ?? null;
  const [listed, setListed] = useState<{ provider: ProviderId; models: ModelEntry[] | null } | null>(null);
  const known = listed !== null && listed.provider === provider;
  useEffect(() => {
    if (!wanted || !provider || !model || known) return;
    let live = true;
    api.providerModels(provider).then(
      (models) => live && setListed({ provider, models: Array.isArray(models) ? models : null }),
      () => live && setListed({ provider, models: null }),
    );
    return () => {
      live = false;
    };
  }, [wanted, provider, model, known]);
  if (!model || !known || !listed.models) return null;
  const entry = listed.models.find((m) => m.id === model);
  return entry && typeof entry.takesImages === "boolean" ? entry.takesImages : null;
}
