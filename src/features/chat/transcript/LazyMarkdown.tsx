// The markdown stack (react-markdown, remark-gfm and the highlight.js grammars: about a third of
// the page's script) is not needed to draw the window, so it is a chunk of its own, loaded just
// after the first paint (main.tsx). Text that arrives before it (a restored conversation on a
// slow disk) shows as plain paragraphs and is formatted the moment the chunk is in.
import { memo, useEffect, useState } from "react";

type MarkdownModule = typeof import("./Markdown");

let loaded: MarkdownModule | null = null;
let loading: Promise<MarkdownModule> | null = null;

/** Loads the markdown chunk once; later calls share the first load. */
export function loadMarkdown(): Promise<MarkdownModule> {
  loading ??= import("./Markdown").then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null; // the next render tries again
      throw error;
    },
  );
  return loading;
}

/** Streamed model text as markdown (plain text until the markdown chunk has loaded). */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const [module, setModule] = useState(loaded);
  useEffect(() => {
    if (module) return;
    let mounted = true;
    loadMarkdown().then(
      (m) => mounted && setModule(m),
      (error: unknown) => console.error("the markdown renderer did not load", error),
    );
    return () => {
      mounted = false;
    };
  }, [module]);
  if (module) return <module.Markdown text={text} />;
  return <p className="markdown-pending">{text}</p>;
});
