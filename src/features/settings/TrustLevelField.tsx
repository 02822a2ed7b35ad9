import type { TrustLevel } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { TRUST_LEVELS } from "./settingsModel";

export function TrustLevelField({ value, onChange }: { value: TrustLevel; onChange: (t: TrustLevel) => void }) {
  return (
    <fieldset className="trust">
      <legend>Trust level</legend>
      {TRUST_LEVELS.map((t) => (
        <label key={t.level} className={`trust-option${value === t.level ? " selected" : ""}`}>
          <input
            type="radio"
            name="trust-level"
            value={t.level}
            checked={value === t.level}
            data-testid={TID.trustLevel[t.level]}
            onChange={() => onChange(t.level)}
          />
          <span className="trust-label">{t.label}</span>
          <span className="trust-explain">{t.explain}</span>
        </label>
      ))}
    </fieldset>
  );
}
