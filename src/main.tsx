import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { warmUpRenderers } from "./app/renderWarmup";
import { loadMarkdown } from "./features/chat/transcript/LazyMarkdown";
import { afterFirstPaint } from "./shared/afterFirstPaint";
import { applyTheme } from "./shared/theme";

// The system's colours until the settings say otherwise (no light flash on a dark desktop).
applyTheme("system");

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The markdown chunk once the first frame is on screen: the window does not wait for it.
afterFirstPaint(() => {
  loadMarkdown().catch((error: unknown) => console.error("the markdown renderer did not load", error));
});
warmUpRenderers();
