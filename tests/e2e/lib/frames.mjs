// The longest gap between the page's frames over some work, as scripts for WebDriver: start with
// `WATCH_FRAMES` (execute), do the work, then read it with `LONGEST_FRAME` (executeAsync), which
// lets half a second more of frames come first. Used by the e2e paste step and bench/app.

export const WATCH_FRAMES = `
  window.__gap = { last: performance.now(), longest: 0, on: true };
  const tick = (now) => {
    const g = window.__gap;
    if (!g.on) return;
    g.longest = Math.max(g.longest, now - g.last);
    g.last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return true;`;

export const LONGEST_FRAME = `
  const done = arguments[arguments.length - 1];
  setTimeout(() => { window.__gap.on = false; done(Math.round(window.__gap.longest)); }, 500);`;
