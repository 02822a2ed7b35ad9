// What the remote-project tests share: the window's settings and the project opened on another
// machine, as the engine answers them.
import type { RemoteOpened, Settings } from "../shared/ipc";
import type { RemoteProject } from "../features/remote/remoteStore";

/** The window's settings: a local project open, Guided. */
export const SETTINGS: Settings = {
  trustLevel: "guided",
  activeProvider: "anthropic",
  providers: {},
  projectDir: "/home/me/local-project",
  toolPermissions: {},
  approvalTimeoutSecs: 30,
  searxngUrl: "http://localhost:8080",
};

/** What `remote_open` answers for `builder@build-box:/srv/app`. */
export const OPENED: RemoteOpened = {
  conversationId: "conv-remote",
  target: "builder@build-box:/srv/app",
  host: "builder@build-box",
  user: "builder",
  containment: "bubblewrap",
  remoteEnvKeys: false,
};

/** The same project as the window keeps it (opened over ssh). */
export const REMOTE_PROJECT: RemoteProject = { ...OPENED, transport: null };
