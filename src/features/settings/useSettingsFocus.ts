import { useEffect, useRef, type RefObject } from "react";
import type { ProviderId } from "../../shared/ipc";
import { aDialogIsOpen } from "../../shared/keyboard";
import { TID } from "../../shared/testids";
import { keyNameOf } from "./settingsModel";
import type { SectionId } from "./settingsSections";

/**
 * Where the focus goes when Settings open: the panel itself, the active provider's key field, or a
 * section (`/permissions` in the composer).
 */
export type SettingsFocus = "providerKey" | SectionId;

/**
 * Settings' keyboard: when they open the focus goes into them (the panel, so PageDown scrolls it and
 * Tab starts at its top; or the key field asked for, e.g. from a refused key's error), and Esc closes
 * them wherever the focus is, on the page itself too (after Ctrl+, or a button that disabled itself
 * the focus is nowhere), unless a control or a dialog took the Esc first.
 */
export function useSettingsFocus(
  panel: RefObject<HTMLElement | null>,
  focusOnOpen: SettingsFocus | null,
  activeProvider: ProviderId,
  close: () => void,
) {
  const latestClose = useRef(close);
  latestClose.current = close;

  useEffect(() => {
    const target =
      focusOnOpen === "providerKey" ? providerField(activeProvider) : focusOnOpen ? sectionBox(focusOnOpen) : null;
    if (target) {
      target.scrollIntoView?.({ block: focusOnOpen === "providerKey" ? "center" : "start" });
      target.focus({ preventScroll: true });
    } else {
      panel.current?.focus({ preventScroll: true });
    }
    // Only as Settings open.
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented || e.isComposing || aDialogIsOpen()) return;
      e.preventDefault();
      latestClose.current();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

/** The active provider's key field, or its address field for a provider without a key. */
function providerField(provider: ProviderId): HTMLElement | null {
  const key = keyNameOf(provider);
  const id = key ? TID.keyInput[key] : TID.baseUrl[provider];
  return document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
}

/** A section's box (SettingsBlock). */
function sectionBox(id: SectionId): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[data-testid="${TID.settingsSection}"][data-section="${id}"]`);
}
