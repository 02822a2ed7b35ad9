// Light, dark or as the system is: the window's colours come from `data-theme` on <html>
// (base.css), set here from the setting, and kept in step with the system when it says "system".
import type { Theme } from "./ipc";

let stopFollowing: (() => void) | null = null;

function systemIsDark(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-color-scheme: dark)").matches;
}

function show(dark: boolean): void {
  document.documentElement.dataset.theme = dark ? "dark" : "light";
}

/** Apply `theme` now; with "system", follow the system's changes until another theme is applied. */
export function applyTheme(theme: Theme | null | undefined): void {
  stopFollowing?.();
  stopFollowing = null;
  if (theme === "light" || theme === "dark") {
    show(theme === "dark");
    return;
  }
  show(systemIsDark());
  if (typeof window.matchMedia !== "function") return;
  const query = window.matchMedia("(prefers-color-scheme: dark)");
  const onChange = (e: MediaQueryListEvent) => show(e.matches);
  query.addEventListener("change", onChange);
  stopFollowing = () => query.removeEventListener("change", onChange);
}
