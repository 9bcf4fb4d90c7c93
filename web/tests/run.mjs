// Browser tests of Parlour's page in real Chromium (Debian's, driven by
// playwright-core; no browser is downloaded). Run by web/browser_test.go
// (go test ./web/), which starts `parlour serve` and sets PARLOUR_URL.
// Screenshots go to PARLOUR_SHOTS (default web/test-results/): every
// game's table mid-deal as GAME-{desktop,phone}-{light,dark}.png, and one
// or more for each test. PARLOUR_TESTS=a,b runs only those tests.
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

async function newPage(viewport = { width: 1100, height: 900 }, opts = {}) {
  const ctx = await browser.newContext({ viewport, ...opts });
  const page = await ctx.newPage();
  page.setDefaultTimeout(15000);
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.errors = errors;
  return page;
}

async function shot(page, name, fullPage = true) {
  await page.screenshot({ path: join(shots, name + ".png"), fullPage });
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
    // A bot's move or a new deal may redraw the board between finding a
    // card and clicking it: look again, unless the turn has passed.
    const pick = Math.floor(rnd() * moves.length);
    for (let attempt = 0; ; attempt++) {
      try {
        await moves[Math.min(pick, moves.length - 1)].click({ timeout: 5000 });
        break;
      } catch (err) {
        if (attempt >= 3 || !/not attached|detached/i.test(String(err))) throw err;
        if (!(await page.$('.turn[data-turn="mine"]'))) return;
        moves = await page.$$('.board [data-move]:not([data-move=""])');
        check(moves.length > 0, "my turn but nothing to click after the board was redrawn");
      }
    }
  }
  await page.waitForFunction(([b]) => {
    const t = document.querySelector(".table-page");
    return (t && Number(t.dataset.seq) > b) || document.querySelector("[data-refusal]");
  }, [before]);
  const refused = await page.$("[data-refusal]");
  if (refused) throw new Error("a clicked move was refused: " + (await refused.textContent()));
}

// wider lists the elements that stick out past a screen of width w.
const wider = (page, w) => page.evaluate((w) => Array.from(document.querySelectorAll("body *")).filter((e) => e.getBoundingClientRect().right > w + 1)
  .slice(0, 5).map((e) => e.tagName.toLowerCase() + "." + String(e.className).replace(/ /g, ".")).join(", "), w);

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
    await a.waitForSelector('.seat-chip[data-seat="1"][data-state="away"] [data-away]');
    check(/away/.test(await a.textContent('.seat-chip[data-seat="1"]')), "the seat says its player is away");
    await a.waitForSelector('[role="log"] li[data-kind="away"]');
    await shot(a, "golf-away");
    check(!a.errors.length, "page errors: " + a.errors);
  },

  async log() {
    // The live log beside the table tells a bot's moves in words, the
    // viewer's own as "You", the end of the hole with its scores and the
    // end of the match; bots go by a name with their level.
    const page = await newPage({ width: 1280, height: 800 });
    const id = await sit(page, { game: "golf", options: { holes: 1, players: 2 }, seats: ["open", "heuristic"], seed: 21 });
    const bot = (await api("GET", `/api/tables/${id}`)).seats[1];
    check(bot.name && bot.level === "casual", "the bot has a name and a level: " + JSON.stringify(bot));
    await page.waitForSelector(`.seat-chip[data-seat="1"][aria-label^="${bot.name} (${bot.level})"]`);
    const log = page.locator('[role="log"]');
    check(await log.isVisible(), "the log is visible");
    check((await log.getAttribute("aria-live")) === "polite", "the log is polite");
    const lb = await log.boundingBox(), bb = await page.locator(".board").boundingBox();
    check(lb.x >= bb.x + bb.width - 1, "the log is beside the board at desktop size");
    const lines = () => page.$$eval('[role="log"] li', (es) => es.map((e) => ({ kind: e.dataset.kind, seat: e.dataset.seat, text: e.textContent.trim() })));
    const r = rng(21);
    for (let n = 0; ; n++) {
      if ((await myTurn(page)) === "over") break;
      await clickMove(page, r);
      check(n < 200, "the hole does not end");
      if (n === 6) await shot(page, "log-golf");
    }
    await page.waitForSelector('[role="log"] li[data-kind="over"], [role="log"] li[data-kind="result"]');
    const all = await lines();
    const botMoves = all.filter((l) => l.kind === "move" && l.seat === "1");
    check(botMoves.length > 2, "the bot's moves are in the log: " + JSON.stringify(all));
    const worded = botMoves.filter((l) => l.text.startsWith(bot.name + " ") && !/:\s*(draw|swap|reveal|discard|stop)\b/.test(l.text));
    check(worded.length === botMoves.length, "the bot's moves are told in words: " + JSON.stringify(botMoves));
    const mine = all.filter((l) => l.kind === "move" && l.seat === "0");
    check(mine.length > 0 && mine.every((l) => /^You /.test(l.text)), "my moves start with You: " + JSON.stringify(mine));
    const cards = await page.$$eval('[role="log"] [data-card-text]', (es) => es.map((e) => e.textContent));
    check(cards.length > 0 && cards.every((c) => /^((10|[2-9AJQK])[♠♥♦♣]|Joker)$/.test(c)), "cards in the log are drawn with suit symbols: " + cards);
    const deal = all.find((l) => l.kind === "deal");
    check(deal && /Hole 1/.test(deal.text) && /-?\d/.test(deal.text), "the end of the hole with its scores: " + JSON.stringify(deal));
    check(/over/i.test(all[all.length - 1].text), "the newest line, at the bottom, is the end of the match: " + JSON.stringify(all.slice(-2)));
    const scrolled = await page.$eval('[role="log"]', (e) => e.scrollHeight - e.clientHeight - e.scrollTop);
    check(scrolled <= 2, `the log is scrolled to its newest line (${scrolled}px left below)`);
    await shot(page, "log-golf-over");
    check(!page.errors.length, "page errors: " + page.errors);
    await page.context().close();
  },

  async recent() {
    // Someone who comes mid-game finds the table's recent past in the
    // log: a spectator opening the table sees the moves made before it
    // came, in words; a seated player who reloads the page keeps the log.
    const page = await newPage({ width: 1280, height: 800 });
    const id = await sit(page, { game: "golf", options: { holes: 2, players: 2 }, seats: ["open", "heuristic"], seed: 33 }, "Tessa");
    const bot = (await api("GET", `/api/tables/${id}`)).seats[1];
    const r = rng(33);
    for (let n = 0; ; n++) {
      check((await myTurn(page)) === "mine", "the hole ended early");
      if ((await seq(page)) >= 8) break;
      await clickMove(page, r);
      check(n < 50, "no eighth move");
    }
    // It is Tessa's turn: the table waits for her.
    const told = (p) => p.$$eval('[role="log"] li', (es) => es.filter((e) => ["move", "deal", "start", "over"].includes(e.dataset.kind))
      .map((e) => ({ kind: e.dataset.kind, seat: e.dataset.seat, text: e.textContent.trim() })));
    const moves = await seq(page);
    const before = await told(page);
    check(before.filter((l) => l.kind === "move").length === moves, `Tessa's log tells ${before.length} lines for ${moves} moves: ` + JSON.stringify(before));

    // A spectator, in a browser context of its own.
    const w = await newPage();
    await w.goto(`${base}/#/t/${id}`);
    await w.waitForSelector('.table-page[data-my-seat="-1"]');
    await w.waitForFunction((n) => document.querySelectorAll('[role="log"] li[data-kind="move"]').length >= n, moves);
    const seen = await told(w);
    const wm = seen.filter((l) => l.kind === "move");
    check(wm.length === moves && seen[0].kind === "start", "the spectator's log of the moves before it came: " + JSON.stringify(seen));
    check(wm.every((l) => l.text.startsWith(l.seat === "1" ? bot.name + " " : "Tessa ") && !/:\s*(draw|swap|reveal|discard|stop)\b/.test(l.text)),
      "the spectator reads the earlier moves in words, by name: " + JSON.stringify(wm));
    check(wm.some((l) => /chose a column to turn up$/.test(l.text)), "a choice made together is told blind: " + JSON.stringify(wm));
    const cards = await w.$$eval('[role="log"] [data-card-text]', (es) => es.map((e) => e.textContent));
    check(cards.length > 0, "the earlier moves' cards are drawn");
    await shot(w, "recent-spectator");

    // Tessa reloads: the same log, her moves as "You".
    await page.reload();
    await page.waitForSelector('.conn[data-conn="open"]');
    await page.waitForFunction((n) => document.querySelectorAll('[role="log"] li[data-kind="move"]').length >= n, moves);
    const after = await told(page);
    check(JSON.stringify(after) === JSON.stringify(before), "the log after a reload:\n" + JSON.stringify(after) + "\nbefore:\n" + JSON.stringify(before));
    check(after.some((l) => l.seat === "0" && /^You /.test(l.text)), "Tessa's own moves start with You: " + JSON.stringify(after));
    // And it goes on: the next move is added below.
    await clickMove(page, r);
    await page.waitForFunction((n) => document.querySelectorAll('[role="log"] li[data-kind="move"]').length > n, moves);
    await shot(page, "recent-reloaded");
    for (const p of [page, w]) { check(!p.errors.length, "page errors: " + p.errors); await p.context().close(); }
  },

  async chat() {
    // Two seated players and a spectator: what one writes, all read, as
    // text; the spectator may not write; too long and too many are refused.
    const t = await api("POST", "/api/tables", { game: "golf", options: { holes: 1, players: 2 }, seats: ["open", "open"], seed: 4 });
    const a = await newPage(), b = await newPage(), c = await newPage();
    let dialogs = 0;
    for (const p of [a, b, c]) p.on("dialog", (d) => { dialogs++; d.dismiss().catch(() => {}); });
    for (const [p, seat, name] of [[a, 0, "Ann"], [b, 1, "Ben"]]) {
      await p.goto(`${base}/#/t/${t.id}`);
      await p.fill(".join-box input", name);
      await p.click(`[data-join="${seat}"]`);
      await p.waitForSelector(`.table-page[data-my-seat="${seat}"]`);
    }
    await c.goto(`${base}/#/t/${t.id}`);
    await c.waitForSelector('.table-page[data-my-seat="-1"] [data-chat-readonly]');
    check(!(await c.$("[data-chat-form]")), "a spectator has no chat box");
    const says = (p, text) => p.waitForFunction((t) => Array.from(document.querySelectorAll("[data-chat-text]")).some((e) => e.textContent === t), text);
    const write = async (p, text) => { await p.fill("[data-chat-form] input", text); await p.press("[data-chat-form] input", "Enter"); };
    await write(a, "hello from Ann");
    for (const p of [a, b, c]) await says(p, "hello from Ann");
    const evil = "<b>x</b><img src=x onerror=alert(1)>";
    await write(b, evil);
    for (const p of [a, b, c]) await says(p, evil);
    for (const p of [a, b, c]) {
      const tags = await p.$$eval("[data-chat-log] img, [data-chat-log] .chat-text b", (es) => es.length);
      check(tags === 0, "chat text was drawn as markup");
    }
    const who = await c.$$eval("[data-chat-seat]", (es) => es.map((e) => e.querySelector(".who").textContent));
    check(who[0] === "Ann" && who[1] === "Ben", "the writers' names: " + who);
    // Too long: counted, and not sent.
    await a.fill("[data-chat-form] input", "x".repeat(501));
    check(/501\/500/.test(await a.textContent("[data-chat-count]")), "the counter shows the length");
    check(await a.isDisabled('[data-chat-form] button[type="submit"]'), "a text over 500 characters cannot be sent");
    await a.press("[data-chat-form] input", "Enter");
    check(/500/.test(await a.textContent("[data-chat-refusal]")), "the reason names the limit");
    // A flood: the server refuses the extra messages, to the writer only.
    for (let i = 1; i <= 6; i++) await write(a, "spam " + i);
    await a.waitForSelector("[data-chat-refusal]");
    const reason = await a.textContent("[data-chat-refusal]");
    check(/at most|dropped|too many|flood/i.test(reason), "the flood refusal: " + reason);
    check(!(await b.$("[data-chat-refusal]")), "the refusal went to the writer only");
    await shot(a, "chat-writer");
    await shot(c, "chat-spectator");
    // The messages are kept with the table: a newcomer reads them.
    const d = await newPage({ width: 390, height: 844 });
    await d.goto(`${base}/#/t/${t.id}`);
    await says(d, "hello from Ann");
    await says(d, evil);
    await shot(d, "chat-phone");
    check(dialogs === 0, "a chat message ran a script");
    check(!(await a.$('[role="log"] li[data-kind="back"]')), "a player's first connection is told as a return");
    for (const p of [a, b, c, d]) check(!p.errors.length, "page errors: " + p.errors);
    for (const p of [a, b, c, d]) await p.context().close();
  },

  async motion() {
    // Cards move when the page may animate, and not at all under reduced
    // motion.
    const run = async (opts, seed) => {
      const page = await newPage({ width: 1280, height: 800 }, opts);
      await sit(page, { game: "golf", options: { holes: 1, players: 2 }, seats: ["open", "random"], seed });
      const r = rng(seed);
      let made = 0, running = 0;
      for (let i = 0; i < 5; i++) {
        if ((await myTurn(page)) !== "mine") break;
        await clickMove(page, r);
        const n = await page.evaluate(() => ({ running: document.getAnimations().length, made: window.__parlourAnimations || 0 }));
        made = n.made; running = Math.max(running, n.running);
      }
      check(!page.errors.length, "page errors: " + page.errors);
      await page.context().close();
      return { made, running };
    };
    const moving = await run({}, 8);
    check(moving.made > 0, "no card moved with motion allowed");
    const still = await run({ reducedMotion: "reduce" }, 8);
    check(still.made === 0 && still.running === 0, `animations under reduced motion: ${JSON.stringify(still)}`);
  },

  async keyboard() {
    // A whole Golf hole with the keys only (move confirmation on: Enter
    // picks, Enter again plays); cards have names in words.
    const page = await newPage({ width: 1280, height: 800 });
    await page.addInitScript(() => localStorage.setItem("parlour.settings", JSON.stringify({ confirm: true })));
    await sit(page, { game: "golf", options: { holes: 1, players: 2 }, seats: ["open", "random"], seed: 12 });
    await myTurn(page);
    const names = await page.$$eval('.golf-seat.mine .card', (es) => es.map((e) => e.getAttribute("aria-label")));
    check(names.length === 6 && names.every((n) => /^(face-down card|(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of (hearts|spades|diamonds|clubs)|joker), (top|bottom) (left|middle|right)$/.test(n)),
      "the cards' names: " + names);
    const r = rng(12);
    let n = 0;
    for (;;) {
      const s = await myTurn(page);
      if (s === "over") break;
      const before = await seq(page);
      if (n > 0) await page.waitForFunction(() => document.activeElement && document.activeElement.closest(".board"), null, { timeout: 3000 })
        .catch(() => { throw new Error("the focus did not come back to the board with my turn"); });
      const k = 1 + Math.floor(r() * 3);
      for (let i = 0; i < k; i++) await page.keyboard.press(i % 2 ? "ArrowDown" : "ArrowRight");
      const f = await page.evaluate(() => {
        const e = document.activeElement;
        if (!e || !e.closest(".board") || e.tagName !== "BUTTON") return null;
        const st = getComputedStyle(e);
        return { move: e.dataset.move || e.textContent, name: e.getAttribute("aria-label") || e.textContent, ring: st.boxShadow, outline: st.outlineStyle };
      });
      check(f, "the arrow keys put the focus on something to play on the board");
      check(f.outline !== "none" && /26, 115, 232/.test(f.ring), "the focus is visible: " + JSON.stringify(f));
      if (n === 2) await shot(page, "keyboard-focus");
      await page.keyboard.press("Enter");
      await page.waitForSelector("[data-pending]").catch(async (e) => { await shot(page, "failure-keyboard"); throw new Error("no pending move after Enter on " + JSON.stringify(f) + " (move " + n + ")"); });
      check(await page.$(".card.pending, .pending"), "the picked move is marked on the board");
      await page.keyboard.press("Enter");
      await page.waitForFunction(([b]) => Number(document.querySelector(".table-page").dataset.seq) > b || document.querySelector("[data-refusal]"), [before]);
      const refused = await page.$("[data-refusal]");
      if (refused) throw new Error("a move made with the keys was refused: " + (await refused.textContent()));
      n++;
      check(n < 200, "the hole does not end");
    }
    await page.waitForSelector("[data-over]");
    check(n >= 3, "moves made with the keys: " + n);
    check(!page.errors.length, "page errors: " + page.errors);
    await page.context().close();
  },

  async shots() {
    // Every game's table mid-deal, at desktop and phone sizes, light and
    // dark (the system's colour scheme, which the page follows).
    for (const [game, options, seats, moves] of [
      ["parcellus", {}, ["open", "heuristic", "easy"], 5],
      ["tractric", {}, ["open", "heuristic", "easy"], 5],
      ["damn", {}, ["open", "heuristic"], 5],
      ["court-circular", {}, ["open", "heuristic", "easy"], 4],
      ["court-circular", { edition: "1862" }, ["open", "heuristic"], 4],
      ["golf", { holes: 3, players: 4 }, ["open", "heuristic", "easy", "random"], 4],
    ]) {
      const page = await newPage({ width: 1280, height: 800 });
      await sit(page, { game, options, seats, seed: 5 });
      await page.fill("[data-chat-form] input", "Good luck, all!");
      await page.press("[data-chat-form] input", "Enter");
      const r = rng(5);
      for (let i = 0; i < (Number(process.env.PARLOUR_MOVES) || moves); i++) {
        if ((await myTurn(page)) !== "mine") break;
        await clickMove(page, r);
      }
      await myTurn(page);
      await page.emulateMedia({ reducedMotion: "reduce" });
      await page.waitForFunction(() => document.getAnimations().length === 0 && !document.querySelector(".ghost")); // the cards settled
      const name = game + (options.edition ? "-" + options.edition : "");
      for (const scheme of ["light", "dark"]) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const [size, vp] of [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]]) {
          if (options.edition && (scheme === "dark" || size === "phone")) continue;
          await page.setViewportSize(vp);
          await page.evaluate(() => window.scrollTo(0, 0));
          await shot(page, `${name}-${size}-${scheme}`, size === "phone");
          if (size === "phone") {
            const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            check(wide <= 1, `the ${name} table is ${wide}px wider than a phone's screen: ` + (wide > 1 ? await wider(page, 390) : ""));
          }
        }
      }
      check(!page.errors.length, game + " page errors: " + page.errors);
      await page.context().close();
    }
  },

  async phone() {
    // A phone: the table fits its width, the log and the chat come below
    // the board and are usable.
    const page = await newPage({ width: 390, height: 844 }, { isMobile: true, hasTouch: true });
    await sit(page, { game: "golf", options: { holes: 1, players: 4 }, seats: ["open", "random", "random", "random"], seed: 3 });
    await myTurn(page);
    await clickMove(page, rng(3));
    await myTurn(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - 390);
    if (overflow > 1) await shot(page, "failure-phone-overflow");
    check(overflow <= 1, `the golf table is ${overflow}px wider than a phone's screen: ` + (overflow > 1 ? await wider(page, 390) : ""));
    const board = await page.locator(".board").boundingBox(), log = await page.locator('[role="log"]').boundingBox();
    check(log.y >= board.y + board.height, "the log comes below the board on a phone");
    check(log.width > 300, "the log has the screen's width");
    await page.fill("[data-chat-form] input", "from my phone");
    await page.locator('[data-chat-form] button[type="submit"]').tap();
    await page.waitForFunction(() => Array.from(document.querySelectorAll("[data-chat-text]")).some((e) => e.textContent === "from my phone"));
    const chips = await page.$$eval(".seat-chip", (es) => es.map((e) => e.getBoundingClientRect().right));
    check(chips.length === 4 && chips.every((x) => x <= 390), "the seats fit the screen");
    await shot(page, "golf-phone");
    check(!page.errors.length, "page errors: " + page.errors);
    await page.context().close();
  },

  async turn() {
    // My turn shows in the tab (title and icon), chimes with sound on, and
    // the turn clock is drawn as a ring; a spectator's tab stays quiet.
    const page = await newPage({ width: 1280, height: 800 });
    await page.addInitScript(() => {
      localStorage.setItem("parlour.settings", JSON.stringify({ sound: true }));
      window.__beeps = 0;
      const AC = window.AudioContext;
      window.AudioContext = class extends AC { createOscillator() { window.__beeps++; return super.createOscillator(); } };
    });
    const id = await sit(page, { game: "golf", options: { holes: 1, players: 2 }, seats: ["open", "heuristic"], seed: 14, clock: 60 });
    await myTurn(page);
    await page.waitForFunction(() => document.title.startsWith("● Your turn"));
    check((await page.$eval('link[rel="icon"]', (e) => e.dataset.turn)) === "1", "the tab's icon says it is my turn");
    await page.waitForSelector('.seat-chip[data-seat="0"] [data-clock-ring]');
    const left = Number(await page.$eval('.seat-chip[data-seat="0"] .ring-fg', (e) => e.getAttribute("stroke-dashoffset")));
    check(left >= 0 && left < 20, "the ring shows most of the minute left: " + left);
    await page.waitForFunction(() => window.__beeps > 0);
    await shot(page, "turn-clock", false);
    const w = await newPage();
    await w.goto(`${base}/#/t/${id}`);
    await w.waitForSelector('.table-page[data-my-seat="-1"] .board');
    check(!(await w.title()).startsWith("●"), "a spectator's tab says nothing of a turn");
    for (const p of [page, w]) { check(!p.errors.length, "page errors: " + p.errors); await p.context().close(); }
  },

  async connection() {
    // Between the page and the server, a routed WebSocket that can refuse
    // a move as a server whose store failed would (code "unavailable"),
    // swallow one (a server that stopped answering), or cut the
    // connection and keep it down.
    let mode = "pass", down = false, moves = 0;
    const routes = [];
    const wire = async (page) => page.routeWebSocket(/\/ws\/tables\//, (ws) => {
      if (down) { ws.close(); return; }
      routes.push(ws);
      const server = ws.connectToServer();
      ws.onMessage((text) => {
        const msg = JSON.parse(text);
        if (msg.type !== "move") { server.send(text); return; }
        moves++;
        if (mode === "refuse") ws.send(JSON.stringify({ v: 1, type: "error", code: "unavailable", message: "store: database is locked", id: msg.id, move: msg.move }));
        else if (mode !== "swallow") server.send(text);
      });
    });
    const table = { game: "golf", options: { holes: 1, players: 2 }, seats: ["open", "random"], seed: 21 };
    const pages = [];
    // reconnecting checks that the page says so, tells no turn, and lets
    // nothing be played, by pointer or keys.
    const reconnecting = async (page, what) => {
      await page.waitForSelector('.conn[data-conn="reconnecting"]', { timeout: 20000 });
      // The tab's title and icon follow in an effect, after the paint.
      await page.waitForFunction(() => !document.title.startsWith("●"), null, { timeout: 2000 }).catch(() => {});
      const s = await page.evaluate(() => ({
        conn: document.querySelector(".conn").textContent,
        turn: document.querySelector(".turn") ? document.querySelector(".turn").textContent : "",
        mine: !!document.querySelector('.turn[data-turn="mine"], .seat-chip.acting, .seat-tag.acting'),
        title: document.title,
        icon: document.querySelector('link[rel="icon"]').dataset.turn,
        playable: Array.from(document.querySelectorAll('.board button, .uncovered button, .pending-bar button, .legal-list button, .fallback input, .fallback button'))
          .filter((e) => !e.matches(":disabled") && !e.closest("[inert]")).length,
        inert: !!document.querySelector(".board-wrap[inert]"),
        text: document.body.innerText,
      }));
      check(s.conn === "reconnecting…", what + ": the connection reads " + s.conn);
      check(s.turn === "The connection to the table was lost: reconnecting… You can play again once it is back.", what + ": the turn line reads " + s.turn);
      check(!s.mine && !/your turn/i.test(s.text) && !/your turn/i.test(s.title) && s.icon === "0", what + ": the page tells a turn: " + s.title);
      check(s.playable === 0 && s.inert, what + `: ${s.playable} things to play, board inert ${s.inert}`);
      const before = moves;
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("Enter");
      check(!(await page.evaluate(() => !!(document.activeElement && document.activeElement.closest(".board")))), what + ": the keys reach the board");
      check(moves === before && !(await page.$("[data-pending]")), what + ": a move went with the keys");
    };
    const back = async (page) => {
      down = false;
      await page.waitForSelector('.conn[data-conn="open"]', { timeout: 20000 });
      await page.waitForSelector('.board-wrap:not([inert])');
    };
    for (const [size, vp] of [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]]) {
      const page = await newPage(vp);
      pages.push(page);
      await wire(page);
      await sit(page, { ...table, seed: table.seed + pages.length });
      await myTurn(page);

      // (1) The store fails: the move is refused in plain words, nothing
      // changes, and the same move may be made again.
      mode = "refuse";
      const before = await seq(page);
      const card = await page.$('.board [data-move]:not([data-move=""])');
      const move = await card.getAttribute("data-move");
      await card.click();
      await page.waitForSelector("[data-refusal]");
      const words = await page.textContent("[data-refusal]");
      check(words === "The server could not save your move; try again.", "the unavailable refusal reads: " + words);
      check((await seq(page)) === before && (await page.$('.turn[data-turn="mine"]')), "the table moved on after a refused move");
      await shot(page, `unavailable-${size}`);
      mode = "pass";
      await page.click(`.board [data-move="${move}"]`);
      await page.waitForFunction((b) => Number(document.querySelector(".table-page").dataset.seq) > b, before);
      check(!(await page.$("[data-refusal]")), "the refusal stays after the move went");

      // (2) The connection is cut and stays down for a while.
      await myTurn(page);
      down = true;
      for (const ws of routes.splice(0)) ws.close({ code: 1001, reason: "going away" });
      await reconnecting(page, size);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, `reconnecting-${size}`);
      await back(page);
      check(await myTurn(page) === "mine", "my turn again after reconnecting");
      await clickMove(page, rng(1));
    }

    // (3) A server that stops answering: a move with no answer drops the
    // connection, and the page connects again.
    const page = pages[0];
    await myTurn(page);
    mode = "swallow"; down = true;
    const card = await page.$('.board [data-move]:not([data-move=""])');
    await card.click();
    await reconnecting(page, "no answer");
    mode = "pass";
    await back(page);
    check(await myTurn(page) === "mine", "my turn again after the server answered again");
    for (const p of pages) { check(!p.errors.length, "page errors: " + p.errors); await p.context().close(); }
  },

  async settings() {
    // The settings are kept: theme, card size, four colours, animations.
    const page = await newPage({ width: 1280, height: 800 });
    await sit(page, { game: "tractric", options: {}, seats: ["open", "random", "random"], seed: 6 });
    await myTurn(page);
    const width = () => page.$eval(".hand .card", (e) => e.getBoundingClientRect().width);
    const w0 = await width();
    await page.click("[data-settings-button]");
    await page.check('[data-setting="theme=dark"]');
    await page.check('[data-setting="size=large"]');
    await page.check('[data-setting="fourColour"]');
    await page.check('[data-setting="speed=off"]');
    await page.fill('[data-setting="name"]', "Tessa");
    check((await page.$eval("html", (e) => e.dataset.theme)) === "dark", "the dark theme is on");
    check((await width()) > w0 * 1.15, "the cards are larger");
    await shot(page, "settings-dark-large");
    await page.reload();
    await page.waitForSelector(".hand .card");
    check((await page.$eval("html", (e) => e.dataset.theme)) === "dark", "the theme is kept");
    check((await width()) > w0 * 1.15, "the card size is kept");
    check((await page.$eval("html", (e) => e.dataset.motion)) === "off", "the animation speed is kept");
    const bg = await page.$eval("body", (e) => getComputedStyle(e).backgroundColor);
    check(/rgb\((\d{1,2}), (\d{1,2}), (\d{1,2})\)/.test(bg), "the page is dark: " + bg);
    const diamonds = await page.$$eval(".card.suit-D", (es) => es.map((e) => getComputedStyle(e).color));
    const clubs = await page.$$eval(".card.suit-C", (es) => es.map((e) => getComputedStyle(e).color));
    check(diamonds.concat(clubs).length > 0, "no diamonds or clubs to look at");
    check(diamonds.every((c) => c === "rgb(21, 96, 189)") && clubs.every((c) => c === "rgb(29, 122, 56)"), "four colours: " + diamonds + " / " + clubs);
    check((await page.evaluate(() => localStorage.getItem("parlour.name"))) === "Tessa", "the name is kept");
    check(!page.errors.length, "page errors: " + page.errors);
    await page.context().close();
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
