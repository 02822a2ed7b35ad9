// The remote projects opened in this window (`remote_open`), kept in memory for the window's
// session: what each is (its target, the machine's user and box, the transport it was opened
// with) and how its link stands (`remote:link`). A link's state may come before the open's answer:
// links are kept by conversation apart from the projects.
import type { RemoteLink, RemoteOpened } from "../../shared/ipc";

export type RemoteProject = RemoteOpened & {
  /** The custom transport it was opened with (null: ssh), to open it again the same way. */
  transport: string | null;
};

export type RemoteProjects = {
  projects: Readonly<Record<string, RemoteProject>>;
  links: Readonly<Record<string, RemoteLink>>;
};

export const NO_REMOTES: RemoteProjects = { projects: {}, links: {} };

export function withOpened(state: RemoteProjects, project: RemoteProject): RemoteProjects {
  return { ...state, projects: { ...state.projects, [project.conversationId]: project } };
}

export function withLink(state: RemoteProjects, link: RemoteLink): RemoteProjects {
  return { ...state, links: { ...state.links, [link.conversationId]: link } };
}

/** The remote project of conversation `id` (null: a local conversation, or none). */
export function remoteOf(state: RemoteProjects, id: string | null): RemoteProject | null {
  return (id && state.projects[id]) || null;
}

/** How the link of conversation `id` stands: null while it is up (or nothing was said yet). */
export function linkDown(state: RemoteProjects, id: string | null): RemoteLink | null {
  const link = id ? state.links[id] : undefined;
  return link && link.state !== "up" ? link : null;
}
