// Model text as markdown. No raw HTML (react-markdown escapes it unless rehype-raw is added, and it
// is not); links open in the system browser after the whole address is shown, never inside the
// webview; images are not loaded (alt text).
import { memo, useMemo, type ReactNode } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { CodeBlock, hastText, languageOf } from "./CodeBlock";
import { ExternalLink } from "../../../shared/ui/ExternalLink";
import { rehypeHighlightCode } from "./highlight";
import { splitMarkdownBlocks } from "./markdownBlocks";
import { plainPrefixLength } from "./plainPrefix";

export const markdownComponents: Components = {
  a: ({ href, children }) => <ExternalLink href={href}>{children as ReactNode}</ExternalLink>,
  img: ({ alt }) => <span className="md-image">[image{alt ? `: ${alt}` : ""}]</span>,
  // A wide table scrolls sideways in a box of its own, which Tab reaches and the arrow keys scroll.
  table: ({ children }) => (
    <div className="md-table-wrap" tabIndex={0} role="region" aria-label="Table">
      <table>{children as ReactNode}</table>
    </div>
  ),
  pre: ({ node, children }) => {
    const code = node?.children?.[0];
    return (
      <CodeBlock language={languageOf(code)} code={hastText(code)}>
        {children as ReactNode}
      </CodeBlock>
    );
  },
};

const rehypePlugins = [rehypeHighlightCode];

const remarkPlugins = [remarkGfm];

/** The rest of a paragraph whose start was plain: parsed alone, without its own <p>. */
const inlineComponents: Components = { ...markdownComponents, p: ({ children }) => <>{children as ReactNode}</> };

const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  const plain = plainPrefixLength(text);
  if (plain > 0) {
    // A paragraph: its plain start as text, only the rest (often nothing) through the parser.
    const rest = text.slice(plain);
    return (
      <p>
        {rest.trim() ? text.slice(0, plain) : text.trimEnd()}
        {rest.trim() ? (
          <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={inlineComponents} skipHtml>
            {rest}
          </ReactMarkdown>
        ) : null}
      </p>
    );
  }
  return (
    <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={markdownComponents} skipHtml>
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
