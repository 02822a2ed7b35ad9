// Scrolling an element to the middle of the window and waiting until it stays there: Settings'
// sections load what they list after the panel opens (skills, hooks, MCP servers, the sandbox) and
// grow, so an element scrolled to a moment ago can sit under the save bar by the time it is clicked.

/** Scroll `selector` to the centre until two looks 150 ms apart find it at the same place. */
export async function centre(s, selector) {
  const place = () =>
    s.execute(
      `const el = document.querySelector(${JSON.stringify(selector)});
       if (!el) return null;
       el.scrollIntoView({ block: "center" });
       return Math.round(el.getBoundingClientRect().top);`,
    );
  let last = await place();
  for (let i = 0; i < 40; i++) {
    await new Promise((r) => setTimeout(r, 150));
    const now = await place();
    if (now !== null && now === last) return true;
    last = now;
  }
  throw new Error(`${selector} kept moving (or is not there)`);
}
