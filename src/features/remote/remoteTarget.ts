// A remote project's name as the user types it: `host:/path`, the host as ssh takes it (`me@box`,
// an alias of ~/.ssh/config), the path absolute there. Checked here as the engine checks it
// (`RemoteTarget::parse`), so a mistyped one is said in words before anything connects.

export type TargetCheck = { ok: true; target: string; host: string; path: string } | { ok: false; problem: string };

const EXAMPLE = "me@build-box:/home/me/app";

export function checkTarget(typed: string): TargetCheck {
  const target = typed.trim();
  if (!target) return { ok: false, problem: `Type the project as host:/path, for example ${EXAMPLE}.` };
  const colon = target.indexOf(":");
  if (colon < 0) {
    return { ok: false, problem: `“${target}” names no folder: type host:/path, for example ${EXAMPLE}.` };
  }
  const host = target.slice(0, colon);
  const path = target.slice(colon + 1);
  if (!host) return { ok: false, problem: `The host is missing before the colon: host:/path, for example ${EXAMPLE}.` };
  if (host.startsWith("-") || /[\s\p{Cc}]/u.test(host)) {
    return { ok: false, problem: `“${host}” is not a host name: no spaces, and it cannot start with “-”.` };
  }
  if (!path) return { ok: false, problem: `The folder is missing after the colon: ${host}:/path/to/project.` };
  if (!path.startsWith("/")) {
    return { ok: false, problem: `The path must be absolute, starting with “/” (“${path}” is not): ${host}:/home/…/project.` };
  }
  if (path.includes("\0")) return { ok: false, problem: "The path cannot contain a NUL character." };
  return { ok: true, target, host, path };
}
