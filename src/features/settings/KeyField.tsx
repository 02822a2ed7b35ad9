// A secret goes from this field straight to the keychain (`keys_set`) and the field is cleared.
// Nothing is ever read back: the UI only learns whether a key is set (`keys_status`).
import { useState } from "react";
import { api, type KeyCheck, type KeyName } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { formatClock, messageOf } from "../../shared/format";

/** "Key set", and whether the provider took it when it was last sent. */
export function keyStatusText(isSet: boolean, check: KeyCheck | null | undefined): string {
  if (!isSet) return "No key";
  if (check === undefined) return "Key set ✓";
  if (check === null) return "Key set ✓ (not used yet)";
  const at = formatClock(new Date(check.atMs));
  return check.accepted ? `Key set ✓ · accepted at ${at}` : `Key set · rejected by the provider at ${at}: replace it`;
}

type KeyFieldProps = {
  name: KeyName;
  label: string;
  isSet: boolean;
  /** What the provider said when the key was last sent; null before it is; absent for a key
   * whose answers are not tracked (the search key). */
  check?: KeyCheck | null;
  onChanged: () => void;
};

export function KeyField({
  name,
  label,
  isSet,
  check,
  onChanged,
}: KeyFieldProps) {
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
      setError(messageOf(e));
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
      <span
        className={`key-status${isSet && check && !check.accepted ? " key-rejected" : ""}`}
        data-testid={TID.keyStatus[name]}
        data-set={isSet}
        data-accepted={isSet && check ? check.accepted : undefined}
      >
        {keyStatusText(isSet, check)}
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
