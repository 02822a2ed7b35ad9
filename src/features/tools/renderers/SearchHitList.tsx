import { TID } from "../../../shared/testids";
import type { SearchHit } from "../../../shared/ipc";

const SHOWN = 200;

/** A search's hits as the engine listed them (`capped`: more matched than the tool listed). */
export function SearchHitList({ hits, capped = false }: { hits: readonly SearchHit[]; capped?: boolean }) {
  if (hits.length === 0) return <p className="muted">No results.</p>;
  return (
    <div data-testid={TID.searchHits}>
      <p className="muted">
        {hits.length} {hits.length === 1 ? "result" : "results"}
      </p>
      <ul className="hits">
        {hits.slice(0, SHOWN).map((h, i) => (
          <li key={i} className="hit" data-testid={TID.searchHit}>
            {h.title && <span className="hit-title">{h.title} </span>}
            <span className="hit-location">
              {h.location}
              {h.line != null && <span className="hit-line">:{h.line}</span>}
            </span>
            {h.text && <code className="hit-text">{h.text.trim()}</code>}
          </li>
        ))}
      </ul>
      {hits.length > SHOWN && <p className="muted">… and {hits.length - SHOWN} more</p>}
      {capped && <p className="muted">More matched than the search listed: narrow it to see them.</p>}
    </div>
  );
}
