// A secret goes from this field straight to the keychain (`keys_set`) and the field is cleared.
// Nothing is ever read back: the UI only learns whether a key is set (`keys_status`).
import { useState } from "react";
import { api, type KeyName } from "../../shared/ipc";
import { TID } from "../../shared/testids";

export function KeyField({
  name,
  label,
  isSet,
  onChanged,
}: {
  name: KeyName;
  label: string;
  isSet: boolean;
  onChanged: () => void;
}) {
  const [value, setValue] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (f: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await f();
      onChanged();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const save = () =>
    run(async () => {
      const v = value.trim();
      // Clear first: the secret must not linger in the DOM while the call is in flight.
      setValue("");
      await api.keysSet(name, v);
    });

  return (
    <div className="key-field">
      <label>
        {label}
        <span className="key-row">
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder={isSet ? "Replace the stored key" : "Paste the key"}
            data-testid={TID.keyInput[name]}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && value.trim()) {
                e.preventDefault();
                void save();
              }
            }}
          />
          <button type="button" data-testid={TID.keySave[name]} disabled={busy || !value.trim()} onClick={() => void save()}>
            Save key
          </button>
        </span>
      </label>
      <span className="key-status" data-testid={TID.keyStatus[name]} data-set={isSet}>
        {isSet ? "Key set ✓" : "No key"}
      </span>
      {isSet && (
        <button type="button" className="link" data-testid={TID.keyRemove[name]} disabled={busy} onClick={() => void run(() => api.keysDelete(name))}>
          Remove
        </button>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
