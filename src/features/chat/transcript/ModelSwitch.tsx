// Which model answers, in the composer, and a quick way to change it: the active provider's
// models, listed when the menu is first opened. The choice is saved in the settings (as in
// Settings → Model providers) and the next message uses it.
//
// The menu names the model that answers from the first moment: the configured one, or — with none
// configured — the provider's default by name. The list loads behind it when the menu is opened
// (a "Loading models…" line at its end), never in place of that name.
import { useState } from "react";
import { api, type ModelEntry, type ProviderId } from "../../../shared/ipc";
import { defaultLabel } from "../../settings/defaultModel";
import { TID } from "../../../shared/testids";
import { modelOptions } from "../../settings/settingsModel";
import { messageOf } from "../../../shared/format";

export interface ModelChoice {
  provider: ProviderId;
  /** The model the settings name; null: the provider's default. */
  model: string | null;
  onChange: (model: string | null) => Promise<void>;
}

type Listed = { state: "idle" } | { state: "loading" } | { state: "ready"; models: ModelEntry[] } | { state: "error" };

export function ModelSwitch({
  choice,
  disabled,
  inUse,
}: {
  choice: ModelChoice;
  disabled: boolean;
  /** The model that last answered in this conversation (a server of one's own names its own). */
  inUse?: string | null;
}) {
  const [listed, setListed] = useState<Listed>({ state: "idle" });
  const [error, setError] = useState<string | null>(null);
  const load = () => {
    if (listed.state !== "idle") return;
    setListed({ state: "loading" });
    Promise.resolve()
      .then(() => api.providerModels(choice.provider))
      .then(
        (models) => setListed({ state: "ready", models: Array.isArray(models) ? models : [] }),
        () => setListed({ state: "error" }),
      );
  };
  const models = listed.state === "ready" ? listed.models : [];
  const options = modelOptions(choice.model, models);
  return (
    <span className="model-switch" title="The model that answers the next message">
      <select
        aria-label="Model"
        data-testid={TID.modelSwitch}
        value={choice.model ?? ""}
        disabled={disabled}
        onFocus={load}
        onMouseDown={load}
        onChange={(e) => {
          setError(null);
          choice.onChange(e.target.value || null).catch((err: unknown) => setError(messageOf(err)));
        }}
      >
        <option value="">{defaultLabel(choice.provider, inUse, models)}</option>
        {options.map((m) => (
          <option key={m.id} value={m.id}>
            {m.displayName || m.id}
          </option>
        ))}
        {listed.state === "loading" && (
          <option value="__loading" disabled>
            Loading models…
          </option>
        )}
      </select>
      {listed.state === "error" && <span className="muted small"> (could not list models)</span>}
      {error && (
        <span className="field-error small" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
