import type { KeyStatus, Settings } from "../../shared/ipc";
import { ProviderSection } from "./ProviderSection";
import { PROVIDERS, isKeySet, keyCheckOf, keyNameOf, providerSettings, setProvider } from "./settingsModel";

/** Settings → Model providers: one section each, the active one chosen here. */
export function ModelProvidersSection({
  settings,
  keys,
  onChange,
  onKeysChanged,
  beforeUse,
}: {
  settings: Settings;
  keys: KeyStatus[];
  onChange: (s: Settings) => void;
  onKeysChanged: () => void;
  /** Writes pending edits, so "Load models" and "Test connection" both use what the user sees. */
  beforeUse: () => Promise<void>;
}) {
  return (
    <section className="settings-section">
      <h3>Model providers</h3>
      {PROVIDERS.map((p) => (
        <ProviderSection
          key={p}
          provider={p}
          settings={providerSettings(settings, p)}
          active={settings.activeProvider === p}
          keySet={isKeySet(keys, keyNameOf(p))}
          keyCheck={keyCheckOf(keys, keyNameOf(p))}
          onActivate={() => onChange({ ...settings, activeProvider: p })}
          onChange={(patch) => onChange(setProvider(settings, p, patch))}
          onKeysChanged={onKeysChanged}
          beforeUse={beforeUse}
          learned={settings.learnedModels}
          onLearnedChange={(learnedModels) => onChange({ ...settings, learnedModels })}
        />
      ))}
    </section>
  );
}
