import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { warmUpRenderers } from "./app/renderWarmup";
import { applyTheme } from "./shared/theme";

// The system's colours until the settings say otherwise (no light flash on a dark desktop).
applyTheme("system");

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

warmUpRenderers();
