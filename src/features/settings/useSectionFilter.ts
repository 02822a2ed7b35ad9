import { useLayoutEffect, useRef, useState } from "react";
import { matchesWords, queryWords, SECTIONS, type SectionId } from "./settingsSections";

const ALL: ReadonlySet<SectionId> = new Set(SECTIONS.map((s) => s.id));

const same = (a: ReadonlySet<SectionId>, b: ReadonlySet<SectionId>) => a.size === b.size && [...a].every((id) => b.has(id));

/**
 * Settings' filter and navigation: the words typed (`query`), the sections whose title, extra words
 * or shown text hold them all (`shown`; every section while nothing is typed), `register` for each
 * section's box, and `jump`, which scrolls to a section and puts the focus on it (Tab then goes on
 * to its first control).
 */
export function useSectionFilter() {
  const [query, setQuery] = useState("");
  const [shown, setShown] = useState(ALL);
  const boxes = useRef(new Map<SectionId, HTMLElement>());
  // One ref callback per section, so React does not detach and attach them on each render.
  const refs = useRef(new Map<SectionId, (el: HTMLElement | null) => void>());

  // The sections' text is read from the page: what a section shows is what the filter finds.
  useLayoutEffect(() => {
    const words = queryWords(query);
    const next = new Set(
      SECTIONS.filter(
        (s) => words.length === 0 || matchesWords(words, `${s.title} ${s.words} ${boxes.current.get(s.id)?.textContent ?? ""}`),
      ).map((s) => s.id),
    );
    setShown((prev) => (same(prev, next) ? prev : next));
  }, [query]);

  const register = (id: SectionId) => {
    let ref = refs.current.get(id);
    if (!ref) {
      ref = (el: HTMLElement | null) => {
        if (el) boxes.current.set(id, el);
        else boxes.current.delete(id);
      };
      refs.current.set(id, ref);
    }
    return ref;
  };

  const jump = (id: SectionId) => {
    const box = boxes.current.get(id);
    if (!box) return;
    box.scrollIntoView?.({ block: "start" });
    box.focus({ preventScroll: true });
  };

  return { query, setQuery, shown, register, jump };
}
