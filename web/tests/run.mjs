// Browser tests of Parlour's page in real Chromium (Debian's, driven by
// playwright-core; no browser is downloaded). Run by web/browser_test.go
// (go test ./web/), which starts `parlour serve` and sets PARLOUR_URL.
// Screenshots go to PARLOUR_SHOTS (default web/test-results/).
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const base = (process.env.PARLOUR_URL || "http://127.0.0.1:8080").replace(/\/$/, "");
const shots = process.env.PARLOUR_SHOTS || join(dirname(fileURLToPath(import.meta.url)), "..", "test-results");
const only = process.env.PARLOUR_TESTS ? process.env.PARLOUR_TESTS.split(",") : null;
mkdirSync(shots, { recursive: true });

// launch() gives the browser a fresh temporary profile of its own.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"],
  timeout: 30000,
});

async function api(method, path, body) {
  const res = await fetch(base + path, { method, headers: body ? { "Content-Type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

function check(cond, msg) { if (!cond) throw new Error(msg); }

async function newPage(viewport = { width: 1100, height: 900 }) {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.errors = errors;
  return page;
}

async function shot(page, name) {
  await page.screenshot({ path: join(shots, name + ".png"), fullPage: true });
}

// sit creates a table through the API (with a fixed seed), opens it and
// takes seat 1 by clicking.
async function sit(page, body, name = "Tester") {
  const t = await api("POST", "/api/tables", body);
  await page.goto(`${base}/#/t/${t.id}`);
  await page.fill(".join-box input", name);
  await page.click('[data-join="0"]');
  await page.waitForSelector('.table-page[data-my-seat="0"]');
  await page.waitForSelector('.seat-chip[data-seat="0"][data-state="here"]');
  return t.id;
}

const seq = (page) => page.$eval(".table-page", (e) => Number(e.dataset.seq));

// myTurn waits until the page's seat may act or the game is over (or stop()
// says enough), and answers which.
async function myTurn(page, stop) {
  const deadline = Date.now() + 30000;
  for (;;) {
    check(Date.now() < deadline, "waited 30s for a turn");
    const s = await page.evaluate(() => {
      const t = document.querySelector(".table-page");
      if (!t) return "none";
      if (t.dataset.status === "over") return "over";
      if (document.querySelector('.turn[data-turn="mine"]')) return "mine";
      return "wait";
    });
    if (s === "over" || s === "mine") return s;
    if (stop && (await stop())) return "stopped";
    await page.waitForTimeout(50);
  }
}

// clickMove makes one legal move by clicking the board: a card or place
// with a move, or (multi-card moves) picking cards and confirming. It
// waits for the table to move on.
async function clickMove(page, rnd) {
  const before = await seq(page);
  const extra = await page.$$eval("[data-extra-move]", (es) => es.map((e) => e.dataset.extraMove));
  check(extra.length === 0, "legal moves the board does not offer: " + extra);
  const confirm = await page.$(".board [data-confirm]");
  if (confirm) {
    const need = Number(await confirm.getAttribute("data-need")) || 0;
    for (let i = 0; i < 20 && (await confirm.isDisabled()); i++) {
      const picks = await page.$$('.board [data-pick="1"]:not([aria-pressed="true"])');
      check(picks.length > 0, "nothing to pick");
      await picks[Math.floor(rnd() * picks.length)].click();
      if (need && i + 1 >= need && (await confirm.isDisabled())) {
        // not a legal set: start again
        const clear = await page.$(".board [data-clear]");
        if (clear) await clear.click();
      }
    }
    await confirm.click();
  } else {
    let moves = await page.$$('.board [data-move]:not([data-move=""])');
    if (!moves.length) {
      // The table may have moved on between seeing the turn and looking
      // for cards (a deal ending, say): if the turn has passed, there is
      // nothing to do; if it is still ours, nothing to click is a fault.
      await page.waitForTimeout(300);
      if (!(await page.$('.turn[data-turn="mine"]'))) return;
      moves = await page.$$('.board [data-move]:not([data-move=""])');
    }
    if (!moves.length) {
      await shot(page, "failure-nothing-to-click");
      const turn = await page.$eval(".turn", (e) => e.textContent).catch(() => "(no turn line)");
      throw new Error(`my turn but nothing to click (turn line: ${turn}; screenshot failure-nothing-to-click.png)`);
    }
    const el = moves[Math.floor(rnd() * moves.length)];
    await el.click();
  }
  await page.waitForFunction(([b]) => {
    const t = document.querySelector(".table-page");
    return (t && Number(t.dataset.seq) > b) || document.querySelector("[data-refusal]");
  }, [before]);
  const refused = await page.$("[data-refusal]");
  if (refused) throw new Error("a clicked move was refused: " + (await refused.textContent()));
}

function rng(seed) { let s = seed >>> 0; return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32); }

const tests = {
  async lobby() {
    const page = await newPage();
    await page.goto(base + "/");
    await page.waitForSelector(".game-card");
    const ids = await page.$$eval(".game-card", (es) => es.map((e) => e.dataset.game));
    check(ids.length === 5 && ["golf", "parcellus", "tractric", "damn", "court-circular"].every((g) => ids.includes(g)), "games listed: " + ids);
    await page.click('.game-card[data-game="tractric"] button');
    await page.waitForSelector('form[data-create="tractric"]');
    await shot(page, "lobby");
    await page.click('.game-card[data-game="parcellus"] >> text=Rules');
    await page.waitForSelector('pre[data-rules="parcellus"]');
    const rules = await page.textContent('pre[data-rules="parcellus"]');
    const want = (await api("GET", "/api/games/parcellus")).rules;
    check(rules === want, "the rules page shows the rules text");
    // A table made with the lobby's form: Damn, seat 1 for me, seat 2 a bot.
    await page.goto(base + "/");
    await page.click('.game-card[data-game="damn"] button');
    await page.waitForSelector('form[data-create="damn"]');
    await page.fill('form[data-create="damn"] input[name="name"]', "Lobbyist");
    await page.selectOption('form[data-create="damn"] select[name="seat1"]', "random");
    await page.click('form[data-create="damn"] button[type="submit"]');
    await page.waitForSelector('.table-page[data-game="damn"][data-my-seat="0"][data-status="playing"]');
    await page.waitForSelector('.seat-chip[data-seat="0"][data-state="here"]');
    const id = await page.evaluate(() => location.hash.split("/")[2]);
    // It shows among the tables being played, to watch.
    const watcher = await newPage();
    await watcher.goto(base + "/");
    await watcher.waitForSelector(`[data-list="live"] [data-table="${id}"] a`);
    await watcher.click(`[data-list="live"] [data-table="${id}"] a`);
    await watcher.waitForSelector('.table-page[data-my-seat="-1"] .board.damn');
    check(!page.errors.length, "page errors: " + page.errors);
  },

  async golf() {
    const page = await newPage();
    const id = await sit(page, { game: "golf", options: { holes: 1, players: 2 }, seats: ["open", "random"], seed: 7 });
    // A refused move shows the server's reason.
    await myTurn(page);
    await page.click(".fallback summary");
    await page.fill('.fallback input[name="move"]', "swap 9");
    await page.press('.fallback input[name="move"]', "Enter");
    await page.waitForSelector("[data-refusal]");
    const reason = await page.textContent("[data-refusal]");
    check(/position|swap|not/i.test(reason), "refusal reason: " + reason);
    await page.click(".fallback summary");
    const r = rng(7);
    let n = 0, reloaded = false;
    for (;;) {
      const s = await myTurn(page);
      if (s === "over") break;
      await clickMove(page, r);
      n++;
      if (n === 3) await shot(page, "golf");
      if (n === 4 && !reloaded) {
        // Reconnect after a reload: the seat comes back from the token.
        reloaded = true;
        await page.reload();
        await page.waitForSelector('.conn[data-conn="open"]');
        await page.waitForSelector('.seat-chip[data-seat="0"][data-state="here"]');
        check(Number(await page.$eval(".table-page", (e) => e.dataset.mySeat)) === 0, "the seat after the reload");
      }
      check(n < 200, "the hole does not end");
    }
    await page.waitForSelector("[data-over]");
    await page.waitForSelector('[data-deal-row="1"]');
    await shot(page, "golf-over");
    check(await page.$("[data-rematch]"), "a rematch button");
    // The replay: step through, all cards shown.
    await page.click("[data-replay-link]");
    await page.waitForSelector(".replay-page");
    await page.click('[data-step-to="next"]');
    await page.waitForSelector('.replay-page[data-step="1"]');
    await page.click('[data-step-to="next"]');
    await page.waitForSelector('.replay-page[data-step="2"]');
    const faceDown = await page.$$eval(".golf-grid .card.dim", (es) => es.filter((e) => e.dataset.card).length);
    check(faceDown > 0, "the replay shows the face-down cards");
    const last = await page.textContent("[data-last-move]");
    check(/^2\. /.test(last), "the replay's last move: " + last);
    await page.click('[data-step-to="last"]');
    await page.waitForFunction(() => {
      const r = document.querySelector(".replay-page");
      return r && r.dataset.step !== "2" && r.dataset.step === document.querySelector("[data-k]").textContent;
    });
    await shot(page, "golf-replay");
    // The shared link opens the replay at that step.
    const page2 = await newPage({ width: 390, height: 844 });
    await page2.goto(`${base}/#/replay/${id}/3`);
    await page2.waitForSelector('.replay-page[data-step="3"]');
    await shot(page2, "golf-replay-phone");
    // The rematch starts a new table with the same seats.
    await page.goto(`${base}/#/t/${id}`);
    await page.click("[data-rematch]");
    await page.waitForFunction((old) => !location.hash.includes(old), id);
    await page.waitForSelector('.table-page[data-game="golf"]');
    check(!page.errors.length, "page errors: " + page.errors);
  },

  async parcellus() {
    // A whole deal by clicking: the pass (pick three, confirm), then the play.
    const page = await newPage();
    await sit(page, { game: "parcellus", options: {}, seats: ["open", "random", "random"], seed: 11 });
    const r = rng(11);
    let n = 0;
    for (;;) {
      const s = await myTurn(page, async () => !!(await page.$('[data-deal-row="1"]')));
      if (s !== "mine" || (await page.$('[data-deal-row="1"]'))) break;
      if (n === 0) await shot(page, "parcellus-pass");
      await clickMove(page, r);
      n++;
      if (n === 3) await shot(page, "parcellus");
      check(n < 100, "the deal does not end");
    }
    await page.waitForSelector('[data-deal-row="1"]');
    await shot(page, "parcellus-deal-over");
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, "parcellus-phone");
    const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    check(wide <= 1, `the parcellus table is ${wide}px wider than a phone's screen`);
    check(!page.errors.length, "page errors: " + page.errors);
  },

  async others() {
    // Tractric, Damn and Court Circular: sit, make a few moves by clicking,
    // and keep a screenshot of each table.
    for (const [game, options, seats, moves] of [
      ["tractric", {}, ["open", "random", "random"], 6],
      ["damn", {}, ["open", "random"], 6],
      ["court-circular", {}, ["open", "random", "random"], 6],
      ["court-circular", { edition: "1862" }, ["open", "random"], 6],
    ]) {
      const page = await newPage();
      await sit(page, { game, options, seats, seed: 5 });
      const r = rng(5);
      for (let i = 0; i < (Number(process.env.PARLOUR_MOVES) || moves); i++) {
        if ((await myTurn(page)) !== "mine") break;
        await clickMove(page, r);
      }
      await myTurn(page);
      const name = game + (options.edition ? "-" + options.edition : "");
      await shot(page, name);
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, name + "-phone");
      const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      check(wide <= 1, `the ${name} table is ${wide}px wider than a phone's screen`);
      check(!page.errors.length, game + " page errors: " + page.errors);
      await page.context().close();
    }
  },

  async away() {
    // Two people at one table by the invite link; when one drops, the
    // other sees the seat away, and back when it returns.
    const a = await newPage();
    const t = await api("POST", "/api/tables", { game: "golf", options: { holes: 1, players: 2 }, seats: ["open", "open"], seed: 9 });
    await a.goto(`${base}/#/t/${t.id}`);
    await a.fill(".join-box input", "Ann");
    await a.click('[data-join="0"]');
    await a.waitForSelector('.table-page[data-my-seat="0"]');
    const invite = await a.inputValue(".invite input");
    const b = await newPage();
    await b.goto(invite);
    await b.fill(".join-box input", "Ben");
    await b.click('[data-join="1"]');
    await b.waitForSelector('.table-page[data-status="playing"]');
    await a.waitForSelector('.seat-chip[data-seat="1"][data-state="here"]');
    await b.context().close();
    await a.waitForSelector('.seat-chip[data-seat="1"][data-state="away"]');
    await shot(a, "golf-away");
    check(!a.errors.length, "page errors: " + a.errors);
  },

  async golfPhone() {
    const page = await newPage({ width: 390, height: 844 });
    await sit(page, { game: "golf", options: { holes: 1, players: 4 }, seats: ["open", "random", "random", "random"], seed: 3 });
    await myTurn(page);
    await shot(page, "golf-phone");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
    check(!overflow, "the golf table is wider than a phone's screen");
  },
};

let failed = 0;
for (const [name, fn] of Object.entries(tests)) {
  if (only && !only.includes(name)) continue;
  const t0 = Date.now();
  try {
    await fn();
    console.log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)}s)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name} (${((Date.now() - t0) / 1000).toFixed(1)}s): ${e && e.stack ? e.stack : e}`);
  }
}
await browser.close();
process.exit(failed ? 1 : 0);
