import { describe, expect, it } from "vitest";
import { plainSnippet } from "./plainSnippet";

describe("plainSnippet", () => {
  it("takes markdown's marks out and keeps the words", () => {
    expect(plainSnippet("## The **quokka** table of `long` words")).toBe("The quokka table of long words");
    expect(plainSnippet("…see the [release notes](https://example.com/notes) and ![a chart](c.png) here…")).toBe(
      "…see the release notes and a chart here…",
    );
    expect(plainSnippet("an *emphasis*, a _word_, __strong__ and ~~gone~~")).toBe("an emphasis, a word, strong and gone");
    expect(plainSnippet("> quoted then text")).toBe("quoted then text");
    expect(plainSnippet("intro ### Heading three")).toBe("intro Heading three");
  });

  it("flattens a table to its cells' words", () => {
    expect(plainSnippet("| Name | Use | | --- | :---: | | quokka | marsupial |")).toBe("Name Use quokka marsupial");
  });

  it("keeps what is not markup: snake_case, 2*3*4, C#, a > b, <b>html</b>, escapes and code", () => {
    expect(plainSnippet("call my_snake_case_fn with 2*3*4 in C# when a > b")).toBe("call my_snake_case_fn with 2*3*4 in C# when a > b");
    expect(plainSnippet("the readme <b>lists</b> every command")).toBe("the readme <b>lists</b> every command");
    expect(plainSnippet("a literal \\*star\\* and \\# hash")).toBe("a literal *star* and # hash");
    expect(plainSnippet("run `a **b** _c_` now")).toBe("run a **b** _c_ now");
    expect(plainSnippet("```rust fn main() { let x = 1; } ``` done")).toBe("fn main() { let x = 1; } done");
  });

  it("copes with a snippet cut mid-link or mid-code", () => {
    expect(plainSnippet("…read [the guide](https://exa…")).toBe("…read the guide");
    expect(plainSnippet("…then `cargo te…")).toBe("…then cargo te…");
  });
});
