import type { ReactNode } from "react";
import { TID } from "../../shared/testids";
import { SECTIONS, type SectionId } from "./settingsSections";

/**
 * Above Settings' sections (beside them in a wide window): a box that narrows the sections shown to
 * those holding the words typed, and the list of the sections shown, each a button that goes there.
 * Esc in the box empties it first; in an empty box it closes Settings, as anywhere else.
 */
export function SettingsNav({
  query,
  onQuery,
  shown,
  onJump,
}: {
  query: string;
  onQuery: (query: string) => void;
  shown: ReadonlySet<SectionId>;
  onJump: (id: SectionId) => void;
}) {
  return (
    <div className="settings-side">
      <input
        type="search"
        className="settings-filter"
        data-testid={TID.settingsFilter}
        aria-label="Find a setting"
        placeholder="Find a setting"
        spellCheck={false}
        value={query}
        onChange={(e) => onQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape" && query) {
            e.preventDefault();
            onQuery("");
          }
        }}
      />
      <nav className="settings-nav" aria-label="Settings sections" data-testid={TID.settingsNav}>
        <ul>
          {SECTIONS.filter((s) => shown.has(s.id)).map((s) => (
            <li key={s.id}>
              <button type="button" className="link" data-testid={TID.settingsNavItem} data-section={s.id} onClick={() => onJump(s.id)}>
                {s.title}
              </button>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

/** One section's box: what the navigation goes to and the filter shows or hides. */
export function SettingsBlock({
  id,
  shown,
  boxRef,
  children,
}: {
  id: SectionId;
  shown: boolean;
  boxRef: (el: HTMLElement | null) => void;
  children: ReactNode;
}) {
  const title = SECTIONS.find((s) => s.id === id)?.title;
  return (
    <div
      ref={boxRef}
      className="settings-block"
      data-testid={TID.settingsSection}
      data-section={id}
      role="group"
      aria-label={title}
      tabIndex={-1}
      hidden={!shown}
    >
      {children}
    </div>
  );
}

/** What the sections say when the filter leaves none of them. */
export function NoSectionMatches({ query, shown }: { query: string; shown: ReadonlySet<SectionId> }) {
  if (shown.size > 0) return null;
  return (
    <p className="muted" data-testid={TID.settingsNoMatch} role="status">
      No setting matches “{query.trim()}”.
    </p>
  );
}
