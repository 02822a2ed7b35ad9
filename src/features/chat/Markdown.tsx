// Model text as markdown. No raw HTML (react-markdown escapes it unless rehype-raw is added, and it
// is not); links are shown, never followed inside the webview; images are not loaded (alt text).
import { memo, useMemo, type ReactNode } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { rehypeHighlightCode } from "./highlight";
import { splitMarkdownBlocks } from "./markdownBlocks";

const components: Components = {
  a: ({ href, children }) => (
    <span className="md-link" title={href ?? undefined}>
      {children as ReactNode}
    </span>
  ),
  img: ({ alt }) => <span className="md-image">[image{alt ? `: ${alt}` : ""}]</span>,
};

const rehypePlugins = [rehypeHighlightCode];

const remarkPlugins = [remarkGfm];

const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components} skipHtml>
      {text}
    </ReactMarkdown>
  );
});

/** Streamed markdown: each finished block is parsed once, only the growing one again. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => splitMarkdownBlocks(text), [text]);
  return (
    <>
      {blocks.map((b, i) => (
        <MarkdownBlock key={i} text={b} />
      ))}
    </>
  );
});
