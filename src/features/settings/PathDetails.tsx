import type { ReactNode } from "react";

/** A folded list of paths (or hosts), each as code, under `summary`. */
export function PathDetails({
  summary,
  paths,
  testId,
}: {
  summary: ReactNode;
  paths: readonly string[];
  testId?: string;
}) {
  return (
    <details data-testid={testId}>
      <summary>{summary}</summary>
      <ul className="path-list">
        {paths.map((p) => (
          <li key={p}>
            <code>{p}</code>
          </li>
        ))}
      </ul>
    </details>
  );
}
