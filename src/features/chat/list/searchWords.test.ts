import { describe, expect, it } from "vitest";
import { markWords, searchWords } from "./searchWords";

const marked = (text: string, query: string) =>
  markWords(text, searchWords(query))
    .filter((p) => p.matched)
    .map((p) => p.text);

describe("search words", () => {
  it("split as the engine splits, and none for punctuation", () => {
    expect(searchWords("  fix: the README-links ")).toEqual(["fix", "the", "README", "links"]);
    expect(searchWords(" -- !? ")).toEqual([]);
  });

  it("mark whole words, the last one as a prefix, whatever the case and accents", () => {
    expect(marked("The theme: then the café", "the cafe")).toEqual(["The", "the", "café"]);
    expect(marked("Déjà vu", "deja")).toEqual(["Déjà"]);
    expect(marked("Déjà vu", "de")).toEqual(["Dé"]);
    expect(marked("De\u0301ja\u0300 vu", "de")).toEqual(["De\u0301"]);
    expect(marked("Them and there", "the")).toEqual(["The", "the"]);
    expect(marked("README links", "readme li")).toEqual(["README", "li"]);
  });

  it("keep the text whole, and nothing marked without words", () => {
    const parts = markWords("a <b>bold</b> claim", ["bold"]);
    expect(parts.map((p) => p.text).join("")).toBe("a <b>bold</b> claim");
    expect(parts.filter((p) => p.matched).map((p) => p.text)).toEqual(["bold"]);
    expect(markWords("plain", [])).toEqual([{ text: "plain", matched: false }]);
  });
});
