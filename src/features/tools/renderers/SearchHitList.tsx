import { TID } from "../../../shared/testids";
import type { SearchHit } from "../searchHits";

const SHOWN = 200;

export function SearchHitList({ hits }: { hits: SearchHit[] }) {
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
              {h.line !== undefined && <span className="hit-line">:{h.line}</span>}
            </span>
            {h.text && <code className="hit-text">{h.text.trim()}</code>}
          </li>
        ))}
      </ul>
      {hits.length > SHOWN && <p className="muted">… and {hits.length - SHOWN} more</p>}
    </div>
  );
}
