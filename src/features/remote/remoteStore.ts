// The remote projects of this window: those opened in it (`remote_open`) and those opened before
// this start (`remote_known`, not linked until taken up again): what each is (its target, the machine's user and box, the transport it was opened
// with) and how its link stands (`remote:link`). A link's state may come before the open's answer:
// links are kept by conversation apart from the projects.
import type { KnownRemote, RemoteLink, RemoteOpened } from "../../shared/ipc";

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

/** A project opened before this start: listed, its link `closed` until it is taken up again. */
export function remembered(state: RemoteProjects, known: KnownRemote): RemoteProjects {
  const { conversationId, target, transport, host, user, containment, remoteEnvKeys = false } = known;
  const project = { conversationId, target, transport: transport ?? null, host, user, containment, remoteEnvKeys };
  const link = { conversationId, state: "closed", detail: null, attempt: null };
  // One opened in this window meanwhile keeps what it has.
  return state.projects[conversationId] ? state : withLink(withOpened(state, project), link);
}

export function withLink(state: RemoteProjects, link: RemoteLink): RemoteProjects {
  return { ...state, links: { ...state.links, [link.conversationId]: link } };
}

/** The remote project of conversation `id` (null: a local conversation, or none). */
export function remoteOf(state: RemoteProjects, id: string | null): RemoteProject | null {
  return (id && state.projects[id]) || null;
}

/** The projects whose session is linked in this window (up, or linking again after a drop). */
export function linkedProjects(state: RemoteProjects): RemoteProject[] {
  const linked = (id: string) => !["closed", "lost", "connecting"].includes(state.links[id]?.state ?? "up");
  return Object.values(state.projects).filter((p) => linked(p.conversationId));
}

/** How the link of conversation `id` stands: null while it is up (or nothing was said yet). */
export function linkDown(state: RemoteProjects, id: string | null): RemoteLink | null {
  const link = id ? state.links[id] : undefined;
  return link && link.state !== "up" ? link : null;
}
