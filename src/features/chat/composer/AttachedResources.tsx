import type { McpResourceText } from "../../../shared/ipc";
import { formatCount } from "../../../shared/format";
import { TID } from "../../../shared/testids";

/** The MCP resources attached to the next message, each removable. */
export function AttachedResources({
  resources,
  onRemove,
}: {
  resources: readonly McpResourceText[];
  onRemove: (uri: string) => void;
}) {
  if (resources.length === 0) return null;
  return (
    <ul className="composer-resources" aria-label="Attached resources" data-testid={TID.composerResources}>
      {resources.map((resource) => (
        <li key={resource.uri} className="composer-resource" data-testid={TID.composerResource} data-uri={resource.uri}>
          <span title={resource.uri}>
            {resource.server} · {resource.uri}
          </span>
          <span className="muted small">
            {formatCount(resource.text.length)} characters{resource.truncated ? " (cut)" : ""}
          </span>
          <button
            type="button"
            className="composer-image-remove"
            data-testid={TID.composerResourceRemove}
            aria-label={`Remove resource ${resource.uri}`}
            title="Remove"
            onClick={() => onRemove(resource.uri)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
