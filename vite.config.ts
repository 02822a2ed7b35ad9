/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// Tauri expects a fixed port and fails if it is taken, rather than silently moving.
export default defineConfig({
  plugins: [react()],
  clearScreen: false,
  server: {
    port: 1420,
    strictPort: true,
    watch: { ignored: ["**/src-tauri/**"] },
  },
  build: {
    target: "es2022",
    outDir: "dist",
    // Loaded from disk by the webview, never over a network. The markdown stack is a chunk of its
    // own, loaded after the first paint (src/features/chat/transcript/LazyMarkdown.tsx); the rest (React and
    // the app, ~380 kB) is what the first frame waits for.
    chunkSizeWarningLimit: 500,
  },
  test: {
    environment: "jsdom",
    globals: true,
    setupFiles: ["./vitest.setup.ts"],
    include: ["src/**/*.test.{ts,tsx}"],
    // Two shared cores: do not fight the Rust builds.
    maxWorkers: 2,
  },
});
