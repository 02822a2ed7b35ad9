// A minimal W3C WebDriver client over fetch (Node 20): just what the specs use.
// tauri-driver listens on 4444 and starts WebKitWebDriver with the app.

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

export class WebDriverError extends Error {
  constructor(method, path, status, body) {
    super(`${method} ${path} -> ${status}: ${body?.value?.error ?? ""} ${body?.value?.message ?? JSON.stringify(body)}`);
    this.status = status;
    this.code = body?.value?.error;
  }
}

export class Session {
  constructor(base, id) {
    this.base = base;
    this.id = id;
  }

  static async create(base, application, { timeoutMs = 60_000 } = {}) {
    const body = {
      capabilities: { alwaysMatch: { "tauri:options": { application } } },
    };
    const res = await request(base, "POST", "/session", body, timeoutMs);
    return new Session(base, res.sessionId ?? res.value?.sessionId);
  }

  cmd(method, path, body) {
    return request(this.base, method, `/session/${this.id}${path}`, body);
  }

  async delete() {
    try {
      await request(this.base, "DELETE", `/session/${this.id}`, undefined, 10_000);
    } catch {
      // the app may already be gone
    }
  }

  title() {
    return this.cmd("GET", "/title");
  }

  /** Runs a script in the page; `args` are passed as `arguments`. */
  execute(script, args = []) {
    return this.cmd("POST", "/execute/sync", { script, args });
  }

  /** Runs an async script; the last argument is the callback. */
  executeAsync(script, args = []) {
    return this.cmd("POST", "/execute/async", { script, args });
  }

  async find(css) {
    const el = await this.cmd("POST", "/element", { using: "css selector", value: css });
    return new Element(this, el[ELEMENT] ?? Object.values(el)[0]);
  }

  async findAll(css) {
    const els = await this.cmd("POST", "/elements", { using: "css selector", value: css });
    return els.map((el) => new Element(this, el[ELEMENT] ?? Object.values(el)[0]));
  }

  byTestId(id) {
    return this.find(`[data-testid="${id}"]`);
  }

  /** Polls until `fn` returns a truthy value (or throws the last error on timeout). */
  async waitFor(what, fn, { timeoutMs = 15_000, intervalMs = 100 } = {}) {
    const deadline = Date.now() + timeoutMs;
    let lastErr;
    while (Date.now() < deadline) {
      try {
        const v = await fn();
        if (v) return v;
      } catch (e) {
        lastErr = e;
      }
      await sleep(intervalMs);
    }
    throw new Error(`timed out waiting for ${what}${lastErr ? `: ${lastErr.message}` : ""}`);
  }

  waitForTestId(id, opts) {
    return this.waitFor(`[data-testid="${id}"]`, () => this.byTestId(id), opts);
  }

  /** Count of elements matching a css selector (0 when none). */
  async count(css) {
    return this.execute("return document.querySelectorAll(arguments[0]).length", [css]);
  }

  /** Resolves after two animation frames, so what the DOM says is what is painted. */
  afterPaint() {
    return this.executeAsync(
      "const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(() => done(true)));",
    );
  }
}

export class Element {
  constructor(session, id) {
    this.s = session;
    this.id = id;
  }
  cmd(method, path, body) {
    return this.s.cmd(method, `/element/${this.id}${path}`, body);
  }
  /** The element as a script argument (`arguments[n]` in the page). */
  ref() {
    return { [ELEMENT]: this.id };
  }
  /**
   * Click the element where it is. Settings' sections fill in as their answers arrive, so an
   * element found a moment ago may have moved under another (WebDriver's "element click
   * intercepted"): then it is scrolled to the middle again and clicked once the page has settled,
   * for up to 3 s — what a person does when the page jumps under the pointer.
   */
  async click() {
    const deadline = Date.now() + 3_000;
    for (;;) {
      try {
        return await this.cmd("POST", "/click", {});
      } catch (error) {
        if (error?.code !== "element click intercepted" || Date.now() > deadline) throw error;
        await this.s.execute("arguments[0].scrollIntoView({ block: 'center' }); return true;", [
          { [ELEMENT]: this.id },
        ]);
        await sleep(100);
      }
    }
  }
  clear() {
    return this.cmd("POST", "/clear", {});
  }
  type(text) {
    return this.cmd("POST", "/value", { text, value: [...text] });
  }
  text() {
    return this.cmd("GET", "/text");
  }
  attr(name) {
    return this.cmd("GET", `/attribute/${name}`);
  }
  property(name) {
    return this.cmd("GET", `/property/${name}`);
  }
  displayed() {
    return this.cmd("GET", "/displayed");
  }
  /** The accessible name WebKit computes for the element (WebDriver's Get Computed Label). */
  computedLabel() {
    return this.cmd("GET", "/computedlabel");
  }

}

async function request(base, method, path, body, timeoutMs = 30_000) {
  const res = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = { value: { message: text } };
  }
  if (!res.ok) throw new WebDriverError(method, path, res.status, json);
  return json.value;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
