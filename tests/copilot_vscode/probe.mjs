// The browser side of tests/copilot_vscode/run.sh: loads code-server's workbench in headless
// Chromium (through playwright-core) so that the extension host runs the probe extension
// (extension/extension.js), which does the work; this script only waits for its output file and
// relays its log. The clipboard permissions let the probe read back the Problems panel's Copy.
//
//   CVP_URL         the code-server address (http://127.0.0.1:PORT)
//   CVP_WS          the workspace folder
//   CVP_OUT         the output JSON the probe writes when done
//   CVP_LOG         the probe's log (relayed as it grows)
//   CVP_SCREEN      a screenshot path (taken when the probe fails or times out)
//   CVP_TIMEOUT_MS  the limit of the whole probe (default 300000)
//   PLAYWRIGHT_DIR  the folder whose node_modules holds playwright-core
//   CHROMIUM        the Chromium executable (default /usr/bin/chromium)
//   CVP_NOTIFICATIONS  when set (the MCP session), where to write the notification center's
//                      messages, as a sorted JSON list, once the probe is done
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
const URL_BASE = env("CVP_URL");
const WS = env("CVP_WS");
const OUT = env("CVP_OUT");
const LOG = env("CVP_LOG");
const SCREEN = env("CVP_SCREEN");
const TIMEOUT = Number(env("CVP_TIMEOUT_MS", "300000"));
const require = createRequire(path.join(env("PLAYWRIGHT_DIR"), "package.json"));
const { chromium } = require("playwright-core");

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-dev-shm-usage"],
  });
  let status = 0;
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: URL_BASE });
  const page = await context.newPage();
  try {
    await page.goto(`${URL_BASE}/?folder=${encodeURIComponent(WS)}`);
    await page.locator(".monaco-workbench").waitFor({ state: "visible", timeout: 120000 });
    const deadline = Date.now() + TIMEOUT;
    let relayed = 0;
    for (;;) {
      if (fs.existsSync(LOG)) {
        const lines = fs.readFileSync(LOG, "utf8").split("\n").filter((l) => l.length > 0);
        for (const line of lines.slice(relayed)) {
          console.log(`  ${line}`);
          if (line.startsWith("FAIL")) {
            status = 1;
          }
        }
        relayed = lines.length;
      }
      if (fs.existsSync(OUT) || status !== 0) {
        break;
      }
      if (Date.now() > deadline) {
        console.log(`FAIL: the probe wrote no ${OUT} within ${TIMEOUT / 1000} s`);
        status = 1;
        break;
      }
      await sleep(500);
    }
  } catch (err) {
    console.log(`FAIL: ${err.message ?? err}`);
    status = 1;
  }
  // The MCP session: the notification center's messages, each read then cleared (the center
  // shows a few at a time), sorted.
  if (status === 0 && process.env.CVP_NOTIFICATIONS) {
    const seen = new Set();
    try {
      for (let i = 0; i < 500; i++) {
        const items = page.locator(".notifications-center .notification-list-item");
        if ((await items.count()) === 0) {
          break;
        }
        for (const t of await page.locator(".notifications-center .notification-list-item-message").allInnerTexts()) {
          seen.add(t);
        }
        await items.first().hover();
        const clear = items.first().locator(".codicon-notifications-clear, .codicon-close").first();
        if ((await clear.count()) === 0) {
          break;
        }
        await clear.click();
        await sleep(100);
      }
      fs.writeFileSync(process.env.CVP_NOTIFICATIONS, JSON.stringify([...seen].sort(), null, 2) + "\n");
    } catch (err) {
      console.log(`FAIL: reading the notifications: ${err.message ?? err}`);
      status = 1;
    }
  }
  if (status !== 0) {
    await page.screenshot({ path: SCREEN }).then(
      () => console.log(`  screenshot: ${SCREEN}`),
      () => undefined,
    );
  }
  await browser.close();
  process.exit(status);
}

main();
