// Settings' part for the remote projects linked in this window (Settings → Sandbox, → MCP
// servers): one collapsed entry per project, asking its machine (`ask`) the first time it is
// opened, what it answered shown by `show`, or why it could not be asked.
import { useState, type ReactNode } from "react";
import { messageOf } from "../../shared/format";
import type { RemoteProject } from "./remoteStore";

type Part<T> = {
  /** The entry's test id; it also carries `data-target`. */
  testId: string;
  /** What the entry's summary says of `project`. */
  summary: (project: RemoteProject) => ReactNode;
  ask: (project: RemoteProject) => Promise<T>;
  /** What was answered (`null` while asking), or why not. */
  show: (answer: T | null, error: string | null, project: RemoteProject) => ReactNode;
};

export function RemoteProjectParts<T>({ projects, ...part }: Part<T> & { projects: RemoteProject[] }) {
  if (projects.length === 0) return null;
  return (
    <div className="remote-sandboxes">
      <h4>Remote projects</h4>
      {projects.map((project) => (
        <RemoteProjectPart key={project.conversationId} project={project} {...part} />
      ))}
    </div>
  );
}

function RemoteProjectPart<T>({ project, testId, summary, ask, show }: Part<T> & { project: RemoteProject }) {
  const [answer, setAnswer] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const asked = () => {
    if (answer !== null || error !== null) return;
    ask(project).then(setAnswer, (e: unknown) => setError(messageOf(e)));
  };
  return (
    <details data-testid={testId} data-target={project.target} onToggle={(e) => e.currentTarget.open && asked()}>
      <summary>{summary(project)}</summary>
      {show(answer, error, project)}
    </details>
  );
}
