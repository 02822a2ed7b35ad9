// Settings' sections as the navigation lists them and the filter box finds them: each one's title,
// and words people may look for that the section does not spell out itself. The filter also reads
// what each section shows (its labels, options and explanations), so these are only the extras.

export type SectionId =
  | "trust"
  | "models"
  | "project"
  | "instructions"
  | "skills"
  | "sandbox"
  | "permissions"
  | "hooks"
  | "mcp"
  | "appearance"
  | "limits"
  | "prices"
  | "search"
  | "updates";

export const SECTIONS: readonly { id: SectionId; title: string; words: string }[] = [
  { id: "trust", title: "Trust level", words: "approve approval ask confirm" },
  { id: "models", title: "Model providers", words: "api key keys token model provider llm claude gpt" },
  { id: "project", title: "Project", words: "folder directory workspace files tools" },
  { id: "instructions", title: "Instructions", words: "agents.md claude.md system prompt rules" },
  { id: "skills", title: "Skills", words: "skill skill.md slash commands custom command .agents .claude" },
  { id: "sandbox", title: "Sandbox", words: "box container bubblewrap network internet registry" },
  { id: "permissions", title: "Permissions", words: "rules allow deny always" },
  { id: "hooks", title: "Hooks", words: "hook pretooluse posttooluse stop command script claude code settings.json" },
  { id: "mcp", title: "MCP servers", words: "model context protocol tools plugins extensions" },
  { id: "appearance", title: "Appearance", words: "theme dark light colour color look" },
  { id: "limits", title: "Limits", words: "timeout time budget context compact compaction" },
  { id: "prices", title: "Model prices", words: "cost costs price pricing usage tokens dollars money spend" },
  { id: "search", title: "Web search", words: "internet brave searxng key" },
  { id: "updates", title: "Updates", words: "version release about" },
];

/** The words of a filter, lower-cased; none for an empty one. */
export function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Whether `text` holds each of `words` (a section matches when all the words typed are in it). */
export function matchesWords(words: readonly string[], text: string): boolean {
  const haystack = text.toLowerCase();
  return words.every((w) => haystack.includes(w));
}
