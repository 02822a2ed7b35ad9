// Code highlighting for fenced blocks with a language: highlight.js grammars for a handful of
// languages through lowlight, which returns a syntax tree (not HTML), so nothing is ever injected.
import type { Element, ElementContent, Root } from "hast";
import { createLowlight } from "lowlight";
import bash from "highlight.js/lib/languages/bash";
import css from "highlight.js/lib/languages/css";
import diff from "highlight.js/lib/languages/diff";
import go from "highlight.js/lib/languages/go";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import markdown from "highlight.js/lib/languages/markdown";
import python from "highlight.js/lib/languages/python";
import rust from "highlight.js/lib/languages/rust";
import shell from "highlight.js/lib/languages/shell";
import sql from "highlight.js/lib/languages/sql";
import toml from "highlight.js/lib/languages/ini";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";

const lowlight = createLowlight({
  bash,
  css,
  diff,
  go,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  toml,
  typescript,
  xml,
  yaml,
});
lowlight.registerAlias({
  bash: ["sh", "zsh"],
  javascript: ["js", "jsx", "mjs"],
  typescript: ["ts", "tsx"],
  python: ["py"],
  rust: ["rs"],
  shell: ["console", "shellsession"],
  xml: ["html", "svg"],
  yaml: ["yml"],
  markdown: ["md"],
});

function textOf(node: ElementContent): string {
  if (node.type === "text") return node.value;
  if (node.type === "element") return node.children.map(textOf).join("");
  return "";
}

function languageOf(code: Element): string | null {
  const classes = code.properties?.className;
  const list = Array.isArray(classes) ? classes : [];
  for (const c of list) {
    if (typeof c === "string" && c.startsWith("language-")) return c.slice("language-".length);
  }
  return null;
}

function visit(node: Root | Element) {
  for (const child of node.children) {
    if (child.type !== "element") continue;
    if (child.tagName === "pre") {
      const code = child.children.find((c): c is Element => c.type === "element" && c.tagName === "code");
      const lang = code ? languageOf(code) : null;
      if (code && lang && lowlight.registered(lang)) {
        const tree = lowlight.highlight(lang, code.children.map(textOf).join(""));
        code.children = tree.children as ElementContent[];
        const cls = Array.isArray(code.properties.className) ? code.properties.className : [];
        code.properties.className = [...cls, "hljs"];
      }
      continue;
    }
    visit(child);
  }
}

/** A rehype plugin: highlight `pre > code.language-*` in place. */
export function rehypeHighlightCode() {
  return (tree: Root) => visit(tree);
}
