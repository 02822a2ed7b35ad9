import type { Settings } from "../../shared/ipc";
import { TID } from "../../shared/testids";
import { NumberField } from "../../shared/ui/NumberField";
import { CompactionField } from "./CompactionField";

/** Settings → Limits: when a conversation is compacted, and how long an approval waits for its answer. */
export function LimitsSection({ settings, onChange }: { settings: Settings; onChange: (s: Settings) => void }) {
  return (
    <section className="settings-section">
      <h3>Limits</h3>
      <CompactionField
        value={settings.compactAtPercent}
        onChange={(compactAtPercent) => onChange({ ...settings, compactAtPercent })}
      />
      <label>
        Approval timeout (seconds) — an unanswered request counts as rejected
        <NumberField
          min={5}
          max={3600}
          testId={TID.approvalTimeout}
          value={settings.approvalTimeoutSecs === 0 ? 30 : (settings.approvalTimeoutSecs ?? 30)}
          disabled={settings.approvalTimeoutSecs === 0}
          onChange={(approvalTimeoutSecs) => onChange({ ...settings, approvalTimeoutSecs })}
        />
      </label>
      <label className="checkbox">
        <input
          type="checkbox"
          data-testid={TID.approvalNoLimit}
          checked={settings.approvalTimeoutSecs === 0}
          onChange={(e) => onChange({ ...settings, approvalTimeoutSecs: e.target.checked ? 0 : 30 })}
        />
        No time limit: a request waits until I answer it
      </label>
    </section>
  );
}
