import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { clearMocks } from "@tauri-apps/api/mocks";
import { afterEach } from "vitest";
import { loadMarkdown } from "./src/features/chat/transcript/LazyMarkdown";

// In the app the markdown chunk loads just after the first paint; tests render with it in place
// (LazyMarkdown.test.tsx covers the moment before).
await loadMarkdown();

afterEach(() => {
  cleanup();
  clearMocks();
});
