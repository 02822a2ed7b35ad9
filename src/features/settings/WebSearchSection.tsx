import type { KeyStatus, Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { KeyField } from "./KeyField";
import { isKeySet } from "./settingsModel";

/** Settings → Web search: the SearXNG address, and the Brave Search key it falls back to. */
export function WebSearchSection({
  settings,
  keys,
  onChange,
  onKeysChanged,
}: {
  settings: Settings;
  keys: KeyStatus[];
  onChange: (s: Settings) => void;
  onKeysChanged: () => void;
}) {
  return (
    <section className="settings-section">
      <h3>Web search</h3>
      <label>
        SearXNG URL
        <input
          type="url"
          data-testid={TID.searxngUrl}
          value={settings.searxngUrl ?? ""}
          onChange={(e) => onChange({ ...settings, searxngUrl: e.target.value })}
        />
      </label>
      <KeyField
        name="brave"
        label="Brave Search key (fallback)"
        isSet={isKeySet(keys, "brave")}
        onChanged={onKeysChanged}
      />
    </section>
  );
}
