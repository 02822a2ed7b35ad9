import type { Settings } from "../../shared/ipc";
import { applyTheme } from "../../shared/theme";
import { TID } from "../../shared/testids";

/** Settings → Appearance: the theme (as the system, light or dark), shown at once. */
export function AppearanceSection({ settings, onChange }: { settings: Settings; onChange: (s: Settings) => void }) {
  return (
    <section className="settings-section">
      <h3>Appearance</h3>
      <div role="radiogroup" aria-label="Theme" className="theme-choice">
        {(["system", "light", "dark"] as const).map((theme) => (
          <label key={theme} className="checkbox">
            <input
              type="radio"
              name="theme"
              data-testid={TID.theme[theme]}
              checked={(settings.theme ?? "system") === theme}
              onChange={() => {
                onChange({ ...settings, theme });
                // Shown at once; saved with the rest.
                applyTheme(theme);
              }}
            />
            {theme === "system" ? "As the system" : theme === "light" ? "Light" : "Dark"}
          </label>
        ))}
      </div>
    </section>
  );
}
