import type { KeyCheck, LearnedModel, ProviderId, ProviderSettings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { ConnectionTest } from "./ConnectionTest";
import { KeyField } from "./KeyField";
import { LearnedModels } from "./LearnedModels";
import { ModelPicker } from "./ModelPicker";
import { DEFAULT_OLLAMA_URL, PROVIDER_LABELS, defaultBaseUrl, keyNameOf } from "./settingsModel";

/** What an empty base URL field shows: the engine's default, or an example where there is none. */
function urlHint(p: ProviderId): string {
  if (p === "ollama") return DEFAULT_OLLAMA_URL;
  const url = defaultBaseUrl(p);
  return url ? `${url} (default)` : "http://localhost:8000/v1";
}

export function ProviderSection({
  provider,
  settings,
  active,
  keySet,
  keyCheck = null,
  onActivate,
  onChange,
  onKeysChanged,
  beforeUse,
  learned = [],
  onLearnedChange = () => {},
}: {
  provider: ProviderId;
  settings: ProviderSettings;
  active: boolean;
  keySet: boolean;
  /** What the provider said about the key when it was last sent. */
  keyCheck?: KeyCheck | null;
  onActivate: () => void;
  onChange: (patch: Partial<ProviderSettings>) => void;
  onKeysChanged: () => void;
  /** Writes pending edits, so "Load models" and "Test connection" both use what the user sees. */
  beforeUse: () => Promise<void>;
  /** Every model Warden found out about (all servers); the section shows its own server's. */
  learned?: LearnedModel[];
  onLearnedChange?: (next: LearnedModel[]) => void;
}) {
  const keyName = keyNameOf(provider);

  return (
    <section className={`provider${active ? " provider-active" : ""}`} data-testid={TID.providerSection[provider]}>
      <header className="provider-head">
        <label>
          <input type="radio" name="active-provider" checked={active} onChange={onActivate} data-testid={`${TID.activeProvider}-${provider}`} />
          <strong>{PROVIDER_LABELS[provider]}</strong>
        </label>
        {active && <span className="badge">in use</span>}
      </header>
      <label>
        {provider === "ollama" ? "Ollama URL" : "Base URL"}
        <input
          type="url"
          placeholder={urlHint(provider)}
          data-testid={TID.baseUrl[provider]}
          value={settings.baseUrl ?? ""}
          onChange={(e) => onChange({ baseUrl: e.target.value || null })}
        />
      </label>
      {keyName && (
        <KeyField
          name={keyName}
          label={provider === "openai_compatible" ? "API key (if the server needs one)" : "API key"}
          isSet={keySet}
          check={keyCheck}
          onChanged={onKeysChanged}
        />
      )}
      <ModelPicker
        provider={provider}
        value={settings.model ?? null}
        autoLoad={active && (keySet || provider === "ollama")}
        beforeLoad={beforeUse}
        onChange={(model, entry) =>
          // The window follows the model, so a window from the previous model never lingers.
          onChange({ model, contextWindow: entry?.contextWindow ?? null })
        }
      />
      <LearnedModels provider={provider} baseUrl={settings.baseUrl} all={learned} onChange={onLearnedChange} />
      <ConnectionTest provider={provider} beforeUse={beforeUse} onTested={onKeysChanged} />
    </section>
  );
}
