// Drives a running code-server (VS Code in the browser) with headless Chromium through
// playwright-core, on a copy of test-workspace/ with the agent-lsp extension installed. Started by
// tests/vscode/run.sh, once per scenario; see that script for the environment it sets:
//
//   VSC_URL        the code-server address (http://127.0.0.1:PORT)
//   VSC_WS         the workspace folder (a copy of test-workspace/)
//   VSC_EXPECTED   `agent-lsp check VSC_WS --no-global --format json` output (the expected codes)
//   VSC_SCENARIO   a name for messages and screenshots
//   VSC_FULL       1: also the quick fix, completion and hover checks; else diagnostics only
//   VSC_SERVER     the agent-lsp executable the extension must have started (checked in /proc),
//                  or a directory ending in / under which it must lie
//   VSC_LOGS       code-server's log directory (the output channels' log files are under it)
//   VSC_OUTPUT_LINES lines (newline-separated) the agent-lsp Output channel must hold
//   VSC_SCREENS    the screenshot directory
//   PLAYWRIGHT_DIR the folder whose node_modules holds playwright-core
//   CHROMIUM       the Chromium executable (default /usr/bin/chromium)
//   VSC_TIMEOUT_MS the limit of each wait (default 60000)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const env = (name, fallback) => {
  const v = process.env[name] ?? fallback;
  if (v === undefined) {
    console.error(`FAIL: ${name} is not set`);
    process.exit(2);
  }
  return v;
};
const URL_BASE = env("VSC_URL");
const WS = env("VSC_WS");
const EXPECTED = JSON.parse(fs.readFileSync(env("VSC_EXPECTED"), "utf8"));
const SCENARIO = env("VSC_SCENARIO", "vscode");
const FULL = env("VSC_FULL", "0") === "1";
const SERVER = env("VSC_SERVER", "");
const LOGS = env("VSC_LOGS", "");
const OUTPUT_LINES = env("VSC_OUTPUT_LINES", "").split("\n").filter((l) => l.length > 0);
const SCREENS = env("VSC_SCREENS", "target/vscode-screens");
const TIMEOUT = Number(env("VSC_TIMEOUT_MS", "60000"));
const require = createRequire(path.join(env("PLAYWRIGHT_DIR"), "package.json"));
const { chromium } = require("playwright-core");

fs.mkdirSync(SCREENS, { recursive: true });
let failures = 0;
let page;

async function shot(name) {
  const file = path.join(SCREENS, `${SCENARIO}-${name}.png`);
  try {
    await page.screenshot({ path: file });
  } catch (err) {
    console.log(`  (no screenshot ${file}: ${err.message})`);
    return;
  }
  return file;
}

/** Runs one check: prints ok or FAIL with the message and a screenshot's path. */
async function check(name, fn) {
  const started = Date.now();
  try {
    await fn();
    console.log(`ok   [${SCENARIO}] ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    await shot(slug(name));
  } catch (err) {
    failures++;
    const file = await shot(`FAIL-${slug(name)}`);
    console.log(`FAIL [${SCENARIO}] ${name}\n     ${String(err.message ?? err).replace(/\n/g, "\n     ")}`);
    if (file) {
      console.log(`     screenshot: ${file}`);
    }
  }
}

const slug = (s) => s.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60);

/** Polls `fn` until it returns `true`; anything else is kept as the last state for the error. */
async function until(what, fn, timeout = TIMEOUT) {
  const deadline = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last === true) {
        return true;
      }
    } catch (err) {
      last = `error: ${err.message}`;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: not after ${timeout / 1000} s (last: ${typeof last === "string" ? last : JSON.stringify(last)})`);
    }
    await page.waitForTimeout(250);
  }
}

/**
 * Expected "code Ln L, Col C" of a workspace file, from the CLI's JSON (hints are not in
 * Problems). The CLI counts columns in characters, VS Code in UTF-16 code units (an emoji is
 * two): the column is converted with the line's text.
 */
function expectedOf(rel) {
  const lines = fs.readFileSync(path.join(WS, rel), "utf8").split("\n");
  const utf16 = (line, col) => [...(lines[line - 1] ?? "")].slice(0, col - 1).join("").length + 1;
  // The CLI ran on `ws`: its paths are `ws/<rel>`.
  return EXPECTED.diagnostics
    .filter((d) => d.path.split("/").slice(1).join("/") === rel && d.severity !== "hint")
    .map((d) => `${d.code} Ln ${d.range.start.line}, Col ${utf16(d.range.start.line, d.range.start.column)}`)
    .sort();
}

async function openFile(rel) {
  await page.keyboard.press("Escape");
  await page.keyboard.press("Control+P");
  const input = page.locator(".quick-input-widget input").first();
  await input.waitFor({ state: "visible", timeout: TIMEOUT });
  // The absolute path: quick open then lists that very file (`opencode.json` alone would
  // also match packages/*/opencode.json).
  await input.fill(path.join(WS, rel));
  const base = path.basename(rel);
  // The first pick must be the file itself (its description is its folder).
  await until(`quick open lists ${rel}`, async () => {
    const first = page.locator(".quick-input-list .monaco-list-row").first();
    const label = await first.getAttribute("aria-label").catch(() => null);
    return (label ?? "").includes(base) ? true : label;
  });
  await page.keyboard.press("Enter");
  await until(`the editor tab of ${rel} is active`, async () => {
    const tab = page.locator(".tabs-container .tab.active");
    const label = (await tab.getAttribute("aria-label").catch(() => "")) ?? "";
    return label.includes(base);
  });
  await page.locator(".editor-instance .monaco-editor textarea").first().waitFor({ state: "attached" });
  // Bounded: when a widget covers that corner, Playwright would wait its whole default timeout.
  await page.locator(".editor-group-container.active .monaco-editor .view-lines").first().click({ position: { x: 5, y: 5 }, timeout: 5000 }).catch(() => undefined);
}

async function goTo(line, col) {
  await page.keyboard.press("Control+G");
  const input = page.locator(".quick-input-widget input").first();
  await input.waitFor({ state: "visible", timeout: TIMEOUT });
  // Ctrl+G opens quick input with ":" (go to line); without it the text is a file search.
  await input.fill(`:${line}:${col}`);
  await page.keyboard.press("Enter");
  await until(`the cursor at ${line}:${col}`, async () => {
    const status = await page.locator("#status\\.editor\\.selection").innerText().catch(() => "");
    return status.includes(`Ln ${line}, Col ${col}`) ? true : status;
  });
}

/**
 * The Problems panel's markers of one file, as "code Ln L, Col C". The panel is filtered to
 * `**\/<basename>` (few rows, none virtualised away); a file row's aria-label names its folder,
 * which tells `opencode.json` from `packages/web/opencode.json`.
 */
async function problemsOf(rel) {
  if (!(await page.locator(".markers-panel").first().isVisible().catch(() => false))) {
    await page.keyboard.press("Control+Shift+M");
  }
  await page.locator(".markers-panel").first().waitFor({ state: "visible", timeout: TIMEOUT });
  const filter = page.locator(".viewpane-filter input, .viewpane-filter textarea, .markers-panel-action-filter input").first();
  await filter.waitFor({ state: "visible", timeout: TIMEOUT });
  const base = path.basename(rel);
  const glob = `**/${base}`;
  if ((await filter.inputValue()) !== glob) {
    await filter.fill(glob);
  }
  // A file row's aria-label: "N problems in file <name> of folder <folder, relative to the workspace>".
  const fileRow = `in file ${base} of folder ${path.dirname(rel)}`;
  const rows = await page.locator(".markers-panel .monaco-tl-row").evaluateAll((els) =>
    els.map((e) => {
      const row = e.closest(".monaco-list-row");
      return { label: row?.getAttribute("aria-label") ?? "", text: e.innerText.replace(/\s+/g, " ") };
    }),
  );
  const found = [];
  let mine = false;
  for (const { label, text } of rows) {
    const pos = text.match(/\[Ln (\d+), Col (\d+)\]/);
    if (!pos) {
      // A file row.
      mine = label.endsWith(fileRow);
      continue;
    }
    // "<message> agent-lsp invalid-value [Ln 3, Col 7]" (older versions: "agent-lsp(invalid-value)").
    const code = text.match(/agent-lsp\s*\(?([a-z0-9-]+)\)?\s*\[Ln/);
    if (mine && code) {
      found.push(`${code[1]} Ln ${pos[1]}, Col ${pos[2]}`);
    }
  }
  return { found: found.sort(), rows };
}

async function expectProblems(rel) {
  const want = expectedOf(rel);
  if (want.length === 0) {
    throw new Error(`the CLI reports nothing for ${rel}: the test's expectation is wrong`);
  }
  let last;
  try {
    await until(`Problems shows ${rel}'s ${want.length} diagnostics`, async () => {
      last = await problemsOf(rel);
      return JSON.stringify(last.found) === JSON.stringify(want);
    });
  } catch (err) {
    throw new Error(
      `${err.message.split(" (last")[0]}\n  expected (agent-lsp check): ${want.join("; ")}\n  Problems panel: ${last?.found.join("; ") || "(none)"}\n  rows: ${JSON.stringify(last?.rows ?? [])}`,
    );
  }
}

/** The agent-lsp servers running, from /proc: argv[0] of every `... serve` process named agent-lsp. */
function runningServers() {
  const out = [];
  for (const pid of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (path.basename(argv[0]) === "agent-lsp" && argv[1] === "serve") {
        out.push(argv[0]);
      }
    } catch {
      // The process is gone.
    }
  }
  return out;
}

/** The files under `dir` (recursively) whose name satisfies `test`. */
function findFiles(dir, test) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      out.push(...findFiles(full, test));
    } else if (test(entry.name)) {
      out.push(full);
    }
  }
  return out;
}

/**
 * `agent-lsp explain ARGS --format json` on the workspace (paths relative to it). Exit status 1
 * says a runtime refuses the configuration (test-workspace is full of mistakes); the JSON is
 * printed all the same.
 */
function explainJson(args) {
  const r = spawnSync(SERVER, ["explain", ...args, "--root", ".", "--no-global", "--format", "json"], {
    cwd: WS,
    encoding: "utf8",
  });
  if (r.status !== 0 && r.status !== 1) {
    throw new Error(`agent-lsp explain ${args.join(" ")}: exit ${r.status}: ${r.stderr}`);
  }
  return JSON.parse(r.stdout);
}

/**
 * What the first permission line of an agent's card may start with (as rendered: no
 * backticks). opencode: a permission the agent's own files set; else one that differs from
 * opencode's defaults (the config's top-level `permission`, a built-in agent's restrictions);
 * else the collapsed defaults line. Claude Code: its tools. Zuno: its tools or its rules.
 * GitHub Copilot: its tools (the tool sets it has; VS Code's settings decide the asking). Codex:
 * its approval policy and sandbox (what runs without asking).
 */
function expectedFirstLine(a) {
  if (a.dialect === "claude") return ["tools:"];
  if (a.dialect === "codex") return ["Permission: approval"];
  if (a.dialect === "copilot") return ["Tools:"];
  if (a.dialect === "zuno") return ["Tools:", "Permission"];
  // Gemini CLI's policy engine decides what its agents may do (`explain` says so): the card
  // leads with the agent's tools, or a remote agent's card.
  if (a.dialect === "gemini") return ["Tools:", "Card:"];
  const listed = explainJson([a.key, "--dialect", "opencode"]);
  const card = Array.isArray(listed) ? listed[0] : listed;
  const keys = (layers) => [...new Set(card.permission.filter((r) => layers.includes(r.layer)).map((r) => r.permission))];
  const line = (k) => (k === "*" ? "any other permission:" : `${k}:`);
  const own = keys(["agent"]);
  if (own.length > 0) return own.map(line);
  const differs = keys(["config", "built-in agent"]);
  return [...differs.map(line), "every other permission"];
}

/** The first permission line of a hover card, its text and where it lies on screen. */
async function firstPermissionLine(content, dialect) {
  return content.evaluate((el, dialect) => {
    const strongs = [...el.querySelectorAll("strong")];
    let first;
    if (dialect === "opencode") {
      const strong = strongs.find((s) => s.textContent.trim() === "Permissions");
      if (!strong) return { error: "no bold Permissions in the card" };
      let list = (strong.closest("p") ?? strong).nextElementSibling;
      while (list && list.tagName !== "UL" && list.tagName !== "OL") list = list.nextElementSibling;
      first = list?.querySelector("li");
    } else if (dialect === "claude") {
      first = el.querySelector("li");
    } else {
      first = strongs.find((s) => ["Tools", "Permission", "Card"].includes(s.textContent.trim()))?.closest("p");
    }
    if (!first) return { error: `no permission line in the ${dialect} card: ${el.textContent.slice(0, 200)}` };
    const rect = (e) => {
      const r = e.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    };
    const widget = el.closest(".monaco-hover") ?? el;
    const viewport = first.closest(".monaco-scrollable-element") ?? widget;
    return { text: first.textContent.trim(), first: rect(first), widget: rect(widget), viewport: rect(viewport) };
  }, dialect);
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  page = await context.newPage();
  page.setDefaultTimeout(TIMEOUT);
  try {
    await page.goto(`${URL_BASE}/?folder=${encodeURIComponent(WS)}`);
    await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: TIMEOUT * 2 });
    // The explorer shows the workspace once the window has loaded it.
    await until("the workbench loads the folder", async () => (await page.locator(".explorer-folders-view .monaco-list-row").count()) > 0 ? true : "(empty explorer)");

    await check("bad-mode.md (opencode agent): invalid-value on line 3 in Problems", async () => {
      await openFile(".opencode/agents/bad-mode.md");
      await expectProblems(".opencode/agents/bad-mode.md");
    });

    if (SERVER) {
      await check(`the extension started ${SERVER}`, async () => {
        await until(`an \`${SERVER} serve\` process`, async () => {
          const servers = runningServers();
          const match = SERVER.endsWith("/") ? servers.some((s) => s.startsWith(SERVER)) : servers.includes(SERVER);
          return match ? true : `agent-lsp servers running: ${servers.join(", ") || "none"}`;
        });
      });
    }

    if (OUTPUT_LINES.length > 0) {
      await check("the agent-lsp Output channel says which binary runs, where it was found, and its version", async () => {
        // What the channel shows, as VS Code writes it to its log file (`<n>-agent-lsp.log`).
        let text = "";
        await until(`the agent-lsp output channel holds ${JSON.stringify(OUTPUT_LINES)}`, () => {
          const files = LOGS ? findFiles(LOGS, (name) => /^\d+-agent-lsp\.log$/.test(name)) : [];
          text = files.map((f) => fs.readFileSync(f, "utf8")).join("\n");
          const missing = OUTPUT_LINES.filter((line) => !text.split(/\r?\n/).some((l) => l.includes(line)));
          return missing.length === 0 ? true : `missing ${JSON.stringify(missing)} in ${files.join(", ") || "(no agent-lsp log under " + LOGS + ")"}`;
        });
        for (const line of text.split(/\r?\n/).filter((l) => /^(server: |server version: |starting |the workspace is not trusted)/.test(l))) {
          console.log(`     output: ${line}`);
        }
        // The channel on screen too (for the screenshot).
        await page.keyboard.press("F1");
        const input = page.locator(".quick-input-widget input").first();
        await input.waitFor({ state: "visible", timeout: TIMEOUT });
        await input.fill(">agent-lsp: Show Output");
        await page.locator(".quick-input-list .monaco-list-row", { hasText: "Show Output" }).first().waitFor({ state: "visible", timeout: TIMEOUT });
        await page.keyboard.press("Enter");
        await until(`the Output panel shows ${JSON.stringify(OUTPUT_LINES[0])}`, async () => {
          // The editor renders spaces as no-break spaces, and wraps long lines.
          const flat = (t) => t.replace(/\s+/g, " ").trim();
          const shown = flat(await page.locator(".output-view .view-lines, .panel .monaco-editor .view-lines").first().innerText().catch(() => ""));
          return shown.includes(flat(OUTPUT_LINES[0])) ? true : shown.slice(0, 300) || "(no output view)";
        });
      });
    }

    if (!FULL) {
      return;
    }

    await check("opencode.json: its diagnostics with codes and lines in Problems", async () => {
      await openFile("opencode.json");
      await expectProblems("opencode.json");
    });

    await check("bad-tools.md (Claude Code agent): its diagnostics with codes and lines in Problems", async () => {
      await openFile(".claude/agents/bad-tools.md");
      await expectProblems(".claude/agents/bad-tools.md");
    });

    await check("quick fix \"Replace with `primary`\" on bad-mode.md's mode, saved to disk", async () => {
      const rel = ".opencode/agents/bad-mode.md";
      const file = path.join(WS, rel);
      const before = fs.readFileSync(file, "utf8");
      if (!before.includes("\nmode: main\n")) {
        throw new Error(`${file} does not hold "mode: main"`);
      }
      await openFile(rel);
      await goTo(3, 7);
      const title = "Replace with `primary`";
      await until(`the quick fix menu offers ${title}`, async () => {
        if (!(await page.locator(".action-widget").first().isVisible().catch(() => false))) {
          await page.keyboard.press("Control+.");
          await page.locator(".action-widget").first().waitFor({ state: "visible", timeout: 5000 }).catch(() => undefined);
        }
        const items = await page.locator(".action-widget .monaco-list-row").allInnerTexts();
        return items.some((t) => t.includes(title) || t.includes("Replace with primary")) ? true : items.join(" | ") || "(no menu)";
      });
      const item = page.locator(".action-widget .monaco-list-row", { hasText: /Replace with `?primary`?/ }).first();
      await item.click();
      await page.keyboard.press("Control+S");
      await until("bad-mode.md on disk reads `mode: primary`", () => {
        const now = fs.readFileSync(file, "utf8");
        return now === before.replace("\nmode: main\n", "\nmode: primary\n") ? true : `line 3: ${now.split("\n")[2]}`;
      });
      await until("the invalid-value diagnostic of bad-mode.md goes away", async () => {
        const { found } = await problemsOf(rel);
        return !found.some((f) => f.startsWith("invalid-value")) ? true : found.join("; ");
      });
    });

    await check("completion after `mode: ` in an opencode agent offers subagent", async () => {
      await openFile(".opencode/agents/bad-mode.md");
      await goTo(3, 7);
      await page.keyboard.press("Shift+End");
      await page.keyboard.press("Delete");
      await until("the completion list offers `subagent`", async () => {
        if (!(await page.locator(".suggest-widget.visible").first().isVisible().catch(() => false))) {
          await page.keyboard.press("Control+Space");
          await page.locator(".suggest-widget.visible").first().waitFor({ state: "visible", timeout: 5000 }).catch(() => undefined);
        }
        const labels = await page.locator(".suggest-widget .monaco-list-row .label-name").allInnerTexts();
        return labels.includes("subagent") ? true : labels.join(", ") || "(no list)";
      });
      await shot("completion-list");
      await page.keyboard.press("Escape");
      // Leave the file as it was on disk (the quick fix's result).
      await page.keyboard.press("Control+Z");
      await page.keyboard.press("Control+S");
    });

    await check("hover on planner.md's `---` line: the agent card, its Permissions visible without scrolling", async () => {
      await openFile(".opencode/agents/planner.md");
      await page.keyboard.press("Escape");
      const content = page.locator(".monaco-hover-content", { hasText: "Permissions" }).first();
      await until("a hover card with **Permissions**", async () => {
        // The topmost `---` line on screen: line 1 (view lines are not in line order in the DOM).
        const boxes = await page
          .locator(".editor-group-container.active .monaco-editor .view-line")
          .evaluateAll((els) =>
            els
              .filter((e) => e.textContent.trim() === "---")
              .map((e) => {
                const r = e.getBoundingClientRect();
                return { x: r.left, y: r.top, width: r.width, height: r.height };
              })
              .sort((a, b) => a.y - b.y),
          );
        const box = boxes[0];
        if (!box) return "(no `---` line on screen)";
        // Move off and back on: a hover only starts on a mouse move.
        await page.mouse.move(box.x + 200, box.y + 300);
        await page.mouse.move(box.x + 8, box.y + box.height / 2);
        await content.waitFor({ state: "visible", timeout: 4000 }).catch(() => undefined);
        return (await content.isVisible()) ? true : "(no hover card with Permissions)";
      });
      const geometry = await content.evaluate((el) => {
        const strong = [...el.querySelectorAll("strong")].find((s) => s.textContent.trim() === "Permissions");
        if (!strong) return { error: "no bold Permissions in the card" };
        let block = strong.closest("p") ?? strong;
        let list = block.nextElementSibling;
        while (list && list.tagName !== "UL" && list.tagName !== "OL") list = list.nextElementSibling;
        const first = list?.querySelector("li");
        if (!first) return { error: "no list of permission lines after **Permissions**" };
        const rect = (e) => {
          const r = e.getBoundingClientRect();
          return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
        };
        const widget = el.closest(".monaco-hover") ?? el;
        const viewport = first.closest(".monaco-scrollable-element") ?? widget;
        return { text: first.textContent, first: rect(first), widget: rect(widget), viewport: rect(viewport), title: el.textContent.slice(0, 80) };
      });
      if (geometry.error) {
        throw new Error(geometry.error);
      }
      const inside = (a, b) => a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
      if (!inside(geometry.first, geometry.widget) || !inside(geometry.first, geometry.viewport)) {
        throw new Error(
          `the first permission line ("${geometry.text}") lies outside the hover's visible box: line ${JSON.stringify(geometry.first)}, hover ${JSON.stringify(geometry.widget)}, viewport ${JSON.stringify(geometry.viewport)}`,
        );
      }
      if (!geometry.title.includes("planner")) {
        throw new Error(`the card does not name planner: ${geometry.title}`);
      }
      console.log(`     first permission line: ${geometry.text}`);
    });

    // Every agent of the workspace that a file defines: its card leads with what the agent
    // itself sets, and that first permission line is visible without scrolling.
    const agents = FULL && SERVER && !SERVER.endsWith("/") && fs.existsSync(SERVER) ? explainJson([]) : [];
    if (FULL && agents.length === 0) {
      await check("the agent list from `agent-lsp explain --format json`", async () => {
        throw new Error(`no agents from ${SERVER}`);
      });
    }
    const seen = new Set();
    for (const a of agents) {
      const where = (a.defined_in ?? []).find((d) => d !== "built-in");
      if (!where || seen.has(`${a.dialect} ${a.key}`)) continue;
      seen.add(`${a.dialect} ${a.key}`);
      const [, rel, line, col] = where.match(/^(.*):(\d+):(\d+)$/) ?? [];
      if (!rel) continue;
      await check(`hover on ${a.dialect} agent ${a.key} (${where}): the first permission line is its own, visible without scrolling`, async () => {
        await openFile(rel);
        await goTo(Number(line), Number(col));
        // The card's part of the hover (a diagnostic's part may name the agent too).
        const content = page
          .locator(".monaco-hover-content")
          .filter({ has: page.locator("h3", { hasText: a.key }) })
          .first();
        let attempts = 0;
        let seen = "";
        const started = Date.now();
        await until(`the hover card of ${a.key}`, async () => {
          attempts++;
          await page.keyboard.press("Escape");
          await page.keyboard.press("Control+K");
          await page.keyboard.press("Control+I");
          await content.waitFor({ state: "visible", timeout: 3000 }).catch(() => undefined);
          if (await content.isVisible()) return true;
          const status = await page.locator("#status\\.editor\\.selection").innerText().catch(() => "");
          const shown = await page.locator(".monaco-hover-content").evaluateAll((els) => els.map((e) => e.textContent.slice(0, 60)));
          seen = `${status}; tab ${await page.locator(".tabs-container .tab.active").getAttribute("aria-label").catch(() => "")}; hovers ${JSON.stringify(shown)}`;
          return `(no hover card naming the agent: ${seen})`;
        });
        if (attempts > 1) {
          console.log(`     the card came at attempt ${attempts}, after ${((Date.now() - started) / 1000).toFixed(1)} s; before: ${seen}`);
        }
        const geometry = await firstPermissionLine(content, a.dialect);
        if (geometry.error) throw new Error(geometry.error);
        const want = expectedFirstLine(a);
        if (!want.some((w) => geometry.text.startsWith(w))) {
          throw new Error(`the first permission line is "${geometry.text}"; expected it to start with one of ${JSON.stringify(want)}`);
        }
        const inside = (x, box) => x.top >= box.top - 1 && x.bottom <= box.bottom + 1;
        if (!inside(geometry.first, geometry.widget) || !inside(geometry.first, geometry.viewport)) {
          throw new Error(
            `the first permission line ("${geometry.text}") lies outside the hover's visible box: line ${JSON.stringify(geometry.first)}, hover ${JSON.stringify(geometry.widget)}, viewport ${JSON.stringify(geometry.viewport)}`,
          );
        }
        console.log(`     first permission line: ${geometry.text}`);
        await page.keyboard.press("Escape");
      });
    }
  } finally {
    await shot("final");
    await browser.close();
  }
}

main()
  .catch(async (err) => {
    failures++;
    console.log(`FAIL [${SCENARIO}] ${err.stack ?? err}`);
  })
  .finally(() => {
    if (failures > 0) {
      console.log(`[${SCENARIO}] ${failures} check(s) failed; screenshots in ${SCREENS}`);
    }
    process.exit(failures > 0 ? 1 : 0);
  });
