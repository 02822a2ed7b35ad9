import { useCallback, useEffect, useState } from "react";
import { api, type ModelEntry, type ProviderId } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { defaultLabel } from "./defaultModel";
import { modelOptions } from "./settingsModel";
import { messageOf } from "../../shared/format";

type Load = { state: "idle" } | { state: "loading" } | { state: "ready"; models: ModelEntry[] } | { state: "error"; message: string };

export function ModelPicker({
  provider,
  value,
  autoLoad,
  beforeLoad,
  onChange,
}: {
  provider: ProviderId;
  value: string | null;
  autoLoad: boolean;
  /** Writes pending settings first: the list is asked with what the user sees. */
  beforeLoad?: () => Promise<void>;
  onChange: (model: string | null, entry: ModelEntry | null) => void;
}) {
  const [load, setLoad] = useState<Load>({ state: "idle" });

  const fetchModels = useCallback(() => {
    setLoad({ state: "loading" });
    Promise.resolve(beforeLoad?.())
      .then(() => api.providerModels(provider))
      .then(
        (models) => setLoad({ state: "ready", models }),
        (e: unknown) => setLoad({ state: "error", message: messageOf(e) }),
      );
  }, [provider]);

  useEffect(() => {
    if (autoLoad) fetchModels();
  }, [autoLoad, fetchModels]);

  const models = load.state === "ready" ? load.models : [];
  const selected = models.find((m) => m.id === value) ?? null;
  const options = modelOptions(value, models);

  return (
    <div className="model-picker">
      <label>
        Model
        <select
          data-testid={TID.modelPicker[provider]}
          value={value ?? ""}
          onChange={(e) => {
            const id = e.target.value || null;
            onChange(id, models.find((m) => m.id === id) ?? null);
          }}
        >
          <option value="">{defaultLabel(provider, null, models)}</option>
          {options.map((m) => (
            <option key={m.id} value={m.id}>
              {m.displayName || m.id}
              {m.supportsTools ? " · tools" : ""}
              {m.takesImages ? " · images" : ""}
            </option>
          ))}
        </select>
      </label>
      {selected?.supportsTools && (
        <span className="badge badge-tools" data-testid={TID.toolsBadge} title="Calls tools natively">
          tools
        </span>
      )}
      {selected?.takesImages && (
        <span className="badge badge-images" data-testid={TID.imagesBadge} title="Reads images (attached ones and those tools return)">
          images
        </span>
      )}
      <button type="button" className="link" onClick={fetchModels} disabled={load.state === "loading"}>
        {load.state === "loading" ? "Loading models…" : load.state === "ready" ? "Refresh" : "Load models"}
      </button>
      {load.state === "error" && <p className="field-error">{load.message}</p>}
    </div>
  );
}
