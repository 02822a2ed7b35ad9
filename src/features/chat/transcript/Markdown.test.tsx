import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import ReactMarkdown from "react-markdown";
import { renderToStaticMarkup } from "react-dom/server";
import remarkGfm from "remark-gfm";
import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import { TID } from "../../../shared/testids";
import { Markdown, markdownComponents } from "./Markdown";
import { plainPrefixLength } from "./plainPrefix";

// What the parser alone makes of a block, with the same components.
const parsed = (text: string) =>
  renderToStaticMarkup(
    <ReactMarkdown remarkPlugins={[remarkGfm]} components={markdownComponents} skipHtml>
      {text}
    </ReactMarkdown>,
  );

describe("Markdown", () => {
  it("renders a paragraph with a plain start exactly as the parser would", () => {
    for (const text of [
      "w0 w1 w2 w3 ",
      "plain words then `code` and **bold** and ~~gone~~",
      "read snake_case and *em* now",
      "mail me@example.com or www.example.com today",
      "prose, (parens) - 3.5% and #not-a-heading 1. not a list",
    ]) {
      expect(renderToStaticMarkup(<Markdown text={text} />)).toBe(parsed(text));
    }
  });

  // What keeps a long streaming paragraph cheap is that its plain start never goes through the
  // parser; that is checked here, and the speed itself belongs to bench/app (no timing in unit tests).
  it("takes a long plain paragraph whole as plain text, without the parser", () => {
    const text = Array.from({ length: 5000 }, (_, i) => `w${i} `).join("");
    expect(plainPrefixLength(text)).toBe(text.length);
    expect(renderToStaticMarkup(<Markdown text={text} />)).toBe(`<p>${text.trimEnd()}</p>`);
  });
});

describe("code blocks", () => {
  it("name their language and copy exactly the code, highlighted or not", async () => {
    const written: string[] = [];
    Object.defineProperty(navigator, "clipboard", {
      configurable: true,
      value: { writeText: (text: string) => (written.push(text), Promise.resolve()) },
    });
    render(<Markdown text={"Try:\n\n```rust\nfn main() { println!(\"hi\"); }\n```\n\n> quoted advice\n"} />);
    const block = screen.getByTestId(TID.codeBlock);
    expect(block).toHaveAttribute("data-language", "rust");
    expect(block).toHaveTextContent("rust");
    await userEvent.click(within(block).getByTestId(TID.codeCopy));
    expect(written).toEqual(['fn main() { println!("hi"); }\n']);
    expect(await within(block).findByText("Copied ✓")).toBeInTheDocument();
    expect(document.querySelector("blockquote")).toHaveTextContent("quoted advice");
  });
});

describe("links", () => {
  it("show the whole address first and open it in the system browser only when asked", async () => {
    const opened: unknown[] = [];
    mockIPC((cmd, args) => {
      if (cmd === "open_link") opened.push((args as { url: string }).url);
      return null;
    });
    render(<Markdown text={"See [the docs](https://docs.example.org/guide?x=1) or [write](mailto:someone@example.org)."} />);
    const [docs, mail] = screen.getAllByTestId(TID.externalLink);
    // Nothing is followed on sight: the window never navigates.
    expect(document.querySelector("a[href]")).toBeNull();

    await userEvent.click(docs!);
    expect(screen.getByTestId(TID.linkAddress)).toHaveTextContent("https://docs.example.org/guide?x=1");
    expect(opened).toEqual([]);
    await userEvent.click(screen.getByTestId(TID.linkOpen));
    await waitFor(() => expect(opened).toEqual(["https://docs.example.org/guide?x=1"]));
    await waitFor(() => expect(screen.queryByTestId(TID.linkConfirm)).toBeNull());

    // An address that is not a web page is shown, never offered to open.
    await userEvent.click(mail!);
    expect(screen.getByTestId(TID.linkAddress)).toHaveTextContent("mailto:someone@example.org");
    expect(screen.queryByTestId(TID.linkOpen)).toBeNull();
    expect(opened).toHaveLength(1);
  });
});

describe("tables", () => {
  it("sit in a box of their own that Tab reaches, named, so a wide one scrolls sideways by keys", async () => {
    render(
      <div>
        <Markdown text={"Before.\n\n| Name | Meaning |\n| --- | --- |\n| internationalization | i18n |\n"} />
      </div>,
    );
    const box = screen.getByRole("region", { name: "Table" });
    expect(box).toHaveClass("md-table-wrap");
    expect(within(box).getByRole("table")).toHaveTextContent("internationalization");
    await userEvent.tab();
    expect(box).toHaveFocus();
  });
});
