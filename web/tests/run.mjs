// Browser tests of Parlour's page in real Chromium (Debian's, driven by
// playwright-core; no browser is downloaded). Run by web/browser_test.go
// (go test ./web/), which starts `parlour serve` and sets PARLOUR_URL.
// Screenshots go to PARLOUR_SHOTS (default web/test-results/): every
// game's table mid-deal as GAME-{desktop,phone}-{light,dark}.png, its end
// of match as GAME-over-{desktop,phone}-{light,dark}.png, and one or more
// for each test. PARLOUR_TESTS=a,b runs only those tests.
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
  // A deal's end held on screen: go on to the next deal first.
  const next = await page.$("[data-next-deal]");
  if (next) {
    await next.click().catch(() => {});
    await page.waitForSelector("[data-deal-end]", { state: "detached" });
  }
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

// box is an element's place on the page (not the screen): its top, left,
// width and height, for telling whether something moved.
const box = (page, sel) => page.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return { x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height }; });
const same = (a, b) => Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1;

// rgbOf writes a colour "#rrggbb" as getComputedStyle does.
const rgbOf = (hex) => `rgb(${parseInt(hex.slice(1, 3), 16)}, ${parseInt(hex.slice(3, 5), 16)}, ${parseInt(hex.slice(5, 7), 16)})`;

// watchOver opens a table as a spectator and waits for the end of its
// match (bot seats play it out).
async function watchOver(page, id, timeout = 90000) {
  await page.goto(`${base}/#/t/${id}`);
  await page.waitForSelector('.table-page[data-status="over"] [data-over]', { timeout });
}

// rulesForPlayers checks the rules of game shown in the page: headings
// (among them want), paragraphs in the page's own font, and nothing
// written for the engine.
async function rulesForPlayers(page, game, want) {
  const sel = `[data-rules="${game}"]`;
  const heads = await page.$$eval(sel + " h3", (es) => es.map((e) => e.textContent.trim()));
  for (const h of want) check(heads.includes(h), `the ${game} rules have no heading "${h}": ${heads}`);
  check(!heads.some((h) => /^(scores|moves|scripts|rulings)/i.test(h)), `the ${game} rules show engine sections: ${heads}`);
  const text = await page.textContent(sel);
  const engine = text.match(/\((moves?|move):|RULINGS|TestRuling|\b(propose|play|pass|keep|swap|reveal|give) [A-Z](?: [A-Z])*\b|SCRIPTS/);
  check(!engine, `the ${game} rules show the engine's notation: ` + (engine && text.slice(Math.max(0, engine.index - 40), engine.index + 40)));
  check((await page.$$(sel + " p")).length >= 5, `the ${game} rules are not in paragraphs`);
  const font = await page.$eval(sel + " p", (e) => getComputedStyle(e).fontFamily + " " + getComputedStyle(e).whiteSpace);
  check(!/mono/i.test(font) && !/pre/.test(font), `the ${game} rules are set as a dump: ${font}`);
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
    await page.waitForSelector('[data-rules="parcellus"] h3');
    await rulesForPlayers(page, "parcellus", ["The deal", "The pass", "The play", "Scoring", "The match"]);
    await shot(page, "rules-page");
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
    // The lobby is pushed, not polled: a table opened after the page
    // loaded shows in its list, and the page asks for no list itself, nor
    // for the rules texts it does not show.
    const lobby = await newPage();
    const asked = [];
    lobby.on("request", (r) => asked.push(r.url().replace(base, "")));
    await lobby.goto(base + "/");
    await lobby.waitForSelector(".game-card");
    const fresh = await api("POST", "/api/tables", { game: "golf", seats: ["open", "random"] });
    await lobby.waitForSelector(`[data-list="open"] [data-table="${fresh.id}"]`, { timeout: 5000 });
    check(!asked.some((u) => u.startsWith("/api/tables")), "the lobby polled its lists: " + asked.filter((u) => u.startsWith("/api/tables")));
    check(asked.includes("/api/games?rules=0") && !asked.includes("/api/games"), "the lobby fetched the games as " + asked.filter((u) => u.startsWith("/api/games")));
    check(!page.errors.length, "page errors: " + page.errors);
  },

  async golf() {
    const page = await newPage();
    const id = await sit(page, { game: "golf", options: { holes: 1, players: 2 }, seats: ["open", "random"], seed: 7 });
    // A refused move shows the server's reason.
    await myTurn(page);
    await page.click(".fallback summary");
    await page.fill('.fallback input[name="move"]', "swap 9");
    const board0 = await box(page, ".board");
    await page.press('.fallback input[name="move"]', "Enter");
    await page.waitForSelector("[data-refusal]");
    const reason = await page.textContent("[data-refusal]");
    check(/position|swap|not/i.test(reason), "refusal reason: " + reason);
    const board1 = await box(page, ".board");
    check(same(board0, board1), `the refused-move banner moved the board from ${JSON.stringify(board0)} to ${JSON.stringify(board1)}`);
    await shot(page, "golf-refused", false);
    await page.click(".fallback summary");
    const r = rng(7);
    let n = 0, reloaded = false, tookDiscard = false, drew = false;
    for (;;) {
      const s = await myTurn(page);
      if (s === "over") break;
      // Drawing: nothing on the table moves as the drawn card appears; a
      // card taken from the discards may not be thrown away, and the
      // prompt does not offer it.
      const how = !tookDiscard && (await page.$('.board [data-move="draw discard"]')) ? "draw discard" : !drew && (await page.$('.board [data-move="draw stock"]')) ? "draw stock" : "";
      if (how) {
        const before = await seq(page);
        const places = async () => ({ stock: await box(page, '[data-place="stock"]'), discard: await box(page, '[data-place="discard"]'), mine: await box(page, ".golf-seat.mine") });
        const p0 = await places();
        await page.click(`.board [data-move="${how}"]`);
        await page.waitForFunction((b) => Number(document.querySelector(".table-page").dataset.seq) > b, before);
        await page.waitForSelector('[data-place="drawn"]:not(.vacant) .card');
        const p1 = await places();
        for (const k of Object.keys(p0)) check(same(p0[k], p1[k]), `the ${k} moved as the drawn card appeared: ${JSON.stringify(p0[k])} to ${JSON.stringify(p1[k])}`);
        const prompt = await page.textContent("[data-prompt]");
        if (how === "draw discard") {
          tookDiscard = true;
          check(!(await page.$('.board [data-move="discard"]')), "a card taken from the discards can be thrown away");
          check(!/throw it away|or the discard pile/i.test(prompt), "after taking the discard, the prompt offers throwing it away: " + prompt);
          await shot(page, "golf-took-discard", false);
        } else {
          drew = true;
          check(await page.$('.board [data-move="discard"]'), "a card drawn from the stock cannot be thrown away");
        }
        await clickMove(page, r);
        n++;
        continue;
      }
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
    // The move list: the log's words, and the current move in view.
    const items = await page.$$eval(".moves li", (es) => es.map((e) => e.textContent.trim()));
    check(items.length > 5 && items.every((t) => !/:\s*(draw|swap|reveal|discard|stop)\b/.test(t)), "the replay's moves are told in notation: " + items.slice(0, 5));
    const inView = () => page.$eval(".moves", (ol) => {
      const li = ol.querySelector("li.current");
      if (!li) return "no current move";
      const a = ol.getBoundingClientRect(), b = li.getBoundingClientRect();
      return b.top >= a.top - 1 && b.bottom <= a.bottom + 1 ? "" : `the current move lies at ${b.top}-${b.bottom}, the list shows ${a.top}-${a.bottom}`;
    });
    const far = await inView();
    check(!far, "after Last: " + far);
    await page.click('[data-step-to="first"]');
    await page.waitForSelector('.replay-page[data-step="0"]');
    await page.click('[data-step-to="next"]');
    await page.waitForSelector('.replay-page[data-step="1"]');
    const near = await inView();
    check(!near, "after going back to the first move: " + near);
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
      if (n === 0) {
        // The pass: no base is turned yet; three cards may be picked, not
        // a fourth; a picked card stays lifted under the pointer.
        const badges = await page.$$eval(".board .badge", (es) => es.map((e) => e.textContent));
        check(!badges.some((b) => /turned the base/.test(b)), "the turned-the-base badge shows before any base is turned: " + badges);
        const picks = await page.$$('.board [data-pick="1"]');
        check(picks.length >= 4, "cards to pick for the pass: " + picks.length);
        const cards = [];
        for (const e of picks.slice(0, 4)) cards.push(await e.getAttribute("data-card"));
        for (const c of cards) {
          const e = await page.$(`.board [data-card="${c}"][data-pick="1"]`);
          if (e) await e.click();
        }
        const picked = await page.$$eval('.board [aria-pressed="true"]', (es) => es.map((e) => e.dataset.card));
        check(picked.length === 3 && !picked.includes(cards[3]), "the pass took a fourth card: " + picked);
        check((await page.textContent(".board [data-confirm]")).startsWith("Pass to "), "the pass's button: " + (await page.textContent(".board [data-confirm]")));
        await page.hover(`.board [data-card="${picked[0]}"]`);
        await page.waitForTimeout(250);
        const lift = await page.$eval(`.board [data-card="${picked[0]}"]`, (e) => new DOMMatrix(getComputedStyle(e).transform).m42);
        check(lift <= -8, "a picked card under the pointer loses its lift: " + lift);
        await shot(page, "parcellus-pass");
        await page.click(".board [data-clear]");
      }
      const none = await page.$('.board [data-move="pass"]');
      if (none) {
        // Adding no card is named apart from the pass of three, and a
        // primary button on the felt is not the felt's colour.
        check((await none.textContent()) === "Add no card", "the button for adding no card reads " + (await none.textContent()));
        const [bg, felt] = await page.evaluate(() => {
          const b = document.querySelector('.board [data-move="pass"]');
          const probe = document.createElement("span");
          probe.style.background = "var(--felt)";
          document.querySelector(".board").appendChild(probe);
          const felt = getComputedStyle(probe).backgroundColor;
          probe.remove();
          return [getComputedStyle(b).backgroundColor, felt];
        });
        check(bg !== felt, "a primary button on the felt has the felt's colour " + felt);
      }
      await clickMove(page, r);
      n++;
      if (n === 3) await shot(page, "parcellus");
      check(n < 100, "the deal does not end");
    }
    await page.waitForSelector('[data-deal-row="1"]');
    const note = await page.textContent(".board-note");
    check(/30 points or more/.test(note) && !/first past/i.test(note), "how the match is won: " + note);
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
    // The chat box's prompt is seen whole, not cut off by the box's edge.
    const [prompt, room] = await a.$eval("[data-chat-form] input", (e) => {
      const s = getComputedStyle(e);
      const g = document.createElement("canvas").getContext("2d");
      g.font = s.font;
      return [g.measureText(e.placeholder).width, e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)];
    });
    check(prompt <= room, `the chat box's prompt is cut off: ${Math.ceil(prompt)} px of text in ${Math.floor(room)} px`);
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
    // The seat's bucket refills as the test runs (protocol.ChatBurst per
    // ChatWindow), so on a slow machine six writes need not overflow it:
    // write until one is refused, each after the last one's answer.
    let refused = false;
    for (let i = 1; i <= 20 && !refused; i++) {
      await write(a, "spam " + i);
      refused = await a.waitForFunction((t) => document.querySelector("[data-chat-refusal]") ? "refused"
        : Array.from(document.querySelectorAll("[data-chat-text]")).some((e) => e.textContent === t) ? "sent" : null, "spam " + i)
        .then((h) => h.jsonValue()).then((v) => v === "refused");
    }
    check(refused, "twenty messages in a row were all sent: the flood was never refused");
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
        // Every phase of every game says what to do.
        const said = await page.$eval(".turn", (e) => e.textContent.trim());
        check(await page.$("[data-prompt]") && !/^Your turn\.$/.test(said), `${game}: the turn line says no more than: ${said}`);
        await clickMove(page, r);
      }
      await myTurn(page);
      await page.emulateMedia({ reducedMotion: "reduce" });
      await page.waitForFunction(() => document.getAnimations().length === 0 && !document.querySelector(".ghost")); // the cards settled
      const name = game + (options.edition ? "-" + options.edition : "");
      for (const scheme of ["light", "dark"]) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const [size, vp] of [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]]) {
          await page.setViewportSize(vp);
          await page.evaluate(() => window.scrollTo(0, 0));
          await shot(page, `${name}-${size}-${scheme}`, size === "phone");
          if (size === "phone") {
            // A player's own cards are on the first screen.
            const own = await page.$eval('.board [aria-label="your hand"], .golf-seat.mine .golf-grid', (e) => e.getBoundingClientRect().bottom);
            check(own <= 844, `${name}: the player's own cards end at ${Math.round(own)}px, below a ${844}px screen`);
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
    // "New table" brings its form on screen.
    await page.goto(base + "/");
    await page.waitForSelector('[data-new-table="tractric"]');
    await page.locator('[data-new-table="tractric"]').tap();
    await page.waitForSelector('form[data-create="tractric"]');
    await page.waitForTimeout(200);
    const form = await page.$eval('form[data-create="tractric"]', (e) => e.getBoundingClientRect().top);
    check(form >= 0 && form < 844 - 100, `the New table form starts at ${Math.round(form)}px, off a phone's screen`);
    await shot(page, "lobby-new-table-phone", false);
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

  async rules() {
    // The rules open beside the table, not instead of it, and read as a
    // page for players.
    const page = await newPage({ width: 1280, height: 800 });
    const id = await sit(page, { game: "tractric", options: {}, seats: ["open", "random", "random"], seed: 16 });
    await myTurn(page);
    const board0 = await page.locator(".board").boundingBox();
    await page.click("[data-open-rules]");
    await page.waitForSelector('[data-rules-panel] [data-rules="tractric"] h3');
    check((await page.evaluate(() => location.hash)) === "#/t/" + id, "opening the rules left the table: " + (await page.evaluate(() => location.hash)));
    const board1 = await page.locator(".board").boundingBox();
    const panel = await page.locator("[data-rules-panel]").boundingBox();
    check(board1 && board1.width > 500 && board1.y < 800, "the table is not in sight beside the rules: " + JSON.stringify(board1));
    check(panel.x >= board1.x + board1.width - 1, "the rules lie over the table: " + JSON.stringify({ panel, board1 }));
    await rulesForPlayers(page, "tractric", ["Equipment", "The deal", "Trumps", "The play", "Scoring a hand"]);
    await shot(page, "rules-beside-table", false);
    // Playing on with the rules open, then closing them with Escape.
    await clickMove(page, rng(16));
    await page.keyboard.press("Escape");
    await page.waitForSelector("[data-rules-panel]", { state: "detached" });
    const board2 = await page.locator(".board").boundingBox();
    check(Math.abs(board2.width - board0.width) < 1, "the table did not come back as it was");
    // On a phone the rules are a sheet over the lower part of the table.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.click("[data-header-rules]"); // the header's link, at a table, opens them beside it
    await page.waitForSelector('[data-rules-panel] [data-rules="tractric"] h3');
    check((await page.evaluate(() => location.hash)) === "#/t/" + id, "the header's Rules link left the table");
    const sheet = await page.locator("[data-rules-panel]").boundingBox();
    const top = await page.locator(".board").boundingBox();
    check(sheet.y >= 0 && sheet.y < 844 && sheet.y + sheet.height <= 845 && sheet.width <= 390, "the rules sheet is not on the phone's screen: " + JSON.stringify(sheet));
    check(top.y >= 0 && top.y + 40 < sheet.y, "the table is not in sight above the rules sheet");
    await shot(page, "rules-phone", false);
    await page.click("[data-close-rules]");
    await page.waitForSelector("[data-rules-panel]", { state: "detached" });
    check(!page.errors.length, "page errors: " + page.errors);
    await page.context().close();
  },

  async tractric4() {
    // Four players: partners opposite, named so, in their side's colour
    // (the colour of their counters); the hand by suit, then rank; "led"
    // only once the lead is on the table.
    const page = await newPage({ width: 1280, height: 800 });
    await sit(page, { game: "tractric", options: { players: 4 }, seats: ["open", "random", "random", "random"], seed: 19 });
    await myTurn(page);
    const colour = (sel, prop) => page.$eval(sel, (e, p) => getComputedStyle(e)[p], prop);
    for (const [seat, side] of [[0, 0], [1, 1], [2, 0], [3, 1]]) {
      const tag = seat === 0 ? ".seat-box.mine .seat-tag" : `.seat-box[data-seat="${seat}"] .seat-tag`;
      const mine = await colour(tag, "borderBottomColor");
      const counters = await colour(`[data-reserve="${side}"] .dot`, "backgroundColor");
      const chip = await colour(`.seat-chip[data-seat="${seat}"]`, "borderLeftColor");
      check(mine === counters && chip === counters, `seat ${seat} is ${mine} (chip ${chip}), its side's counters ${counters}`);
    }
    check((await page.textContent('.seat-box[data-seat="2"] [data-partner]')) === "your partner", "the partner is not named");
    check(!(await page.$('.seat-box[data-seat="1"] [data-partner], .seat-box[data-seat="3"] [data-partner]')), "an opponent is named partner");
    check(await page.$('.trick [data-trick-seat="2"].slot-top'), "the partner's card is not opposite mine");
    check(await page.$('.trick [data-trick-seat="0"].slot-bottom') && await page.$('.trick [data-trick-seat="1"].slot-left') && await page.$('.trick [data-trick-seat="3"].slot-right'), "the trick is not laid round the table");
    const hand = await page.$$eval('.seat-box.mine [aria-label="your hand"] .card', (es) => es.map((e) => e.dataset.card));
    const ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
    const suits = hand.map((c) => c.slice(-1));
    const groups = suits.filter((x, i) => i === 0 || x !== suits[i - 1]);
    check(new Set(groups).size === groups.length, "the hand is not sorted by suit: " + hand);
    check(hand.every((c, i) => i === 0 || c.slice(-1) !== hand[i - 1].slice(-1) || ranks.indexOf(c.slice(0, -1)) > ranks.indexOf(hand[i - 1].slice(0, -1))), "a suit is not sorted by rank: " + hand);
    // The trick, once the cards have landed: every card (a placeholder
    // too) lies inside the trick area and over no seat's panel; the
    // partner's opposite mine, the opponents' at the sides. Answers how
    // many cards were played to it.
    const trickLaidOut = async (size) => {
      const got = await page.evaluate(() => {
        const board = [...document.querySelectorAll(".board.tractric")].find((b) => !b.closest(".deal-end"));
        const box = (e) => e.getBoundingClientRect();
        const area = box(board.querySelector(".trick"));
        const panels = [...board.querySelectorAll(".seat-box")].map((e) => [e.dataset.seat, box(e)]);
        const faults = [];
        const at = {};
        let played = 0;
        for (const c of board.querySelectorAll(".trick .slot > .card")) {
          const slot = c.closest("[data-trick-seat]");
          const what = `seat ${slot.dataset.trickSeat}'s ${c.dataset.card || "empty place"}`;
          const r = box(c);
          at[slot.className.match(/slot-(\w+)/)[1]] = r;
          if (!c.classList.contains("empty")) played++;
          if (r.left < area.left - .5 || r.right > area.right + .5 || r.top < area.top - .5 || r.bottom > area.bottom + .5) faults.push(`${what} lies outside the trick area`);
          for (const [s, b] of panels) {
            if (r.left < b.right && r.right > b.left && r.top < b.bottom && r.bottom > b.top) faults.push(`${what} lies over seat ${s}'s panel`);
          }
        }
        const { left, top, right, bottom } = at;
        if (!(left && top && right && bottom)) faults.push("the trick has not four places: " + Object.keys(at));
        else if (!(left.right <= top.left && right.left >= top.right && top.bottom <= bottom.top && left.top > top.top && left.bottom < bottom.bottom && right.top > top.top && right.bottom < bottom.bottom)) {
          faults.push("the places are not round the table: " + JSON.stringify(at));
        }
        return { played, faults };
      });
      check(!got.faults.length, `${size}: ` + got.faults.join("; "));
      return got.played;
    };
    const sizes = [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]];
    const r = rng(19);
    let turns = 0, fuller = 0;
    for (let i = 0; i < 14; i++) {
      if ((await myTurn(page)) !== "mine") break;
      const led = await page.$$eval(".trick .slot", (es) => es.filter((e) => /\bled\b/.test(e.textContent)).map((e) => !!e.querySelector(".card[data-card]:not([data-card=''])")));
      check(led.every(Boolean), "a seat is said to have led with no card on the table");
      const prompt = await page.textContent("[data-prompt]").catch(() => "");
      check(prompt.trim().length > 3, "no prompt on my turn");
      await page.waitForFunction(() => !document.querySelector(".board .flying, .ghost")); // the cards landed
      let played = 0;
      for (const [size, vp] of sizes) {
        await page.setViewportSize(vp);
        played = await trickLaidOut(size);
      }
      if (played >= 3 && !fuller++) {
        // The others' cards on the table, as a player sees them.
        for (const scheme of ["light", "dark"]) {
          await page.emulateMedia({ colorScheme: scheme });
          for (const [size, vp] of sizes) {
            await page.setViewportSize(vp);
            await page.evaluate(() => window.scrollTo(0, 0));
            await shot(page, "tractric-4p" + (size === "phone" ? "-phone" : "") + (scheme === "dark" ? "-dark" : ""), false);
          }
        }
        await page.emulateMedia({ colorScheme: "light" });
      }
      await page.setViewportSize(sizes[0][1]);
      await clickMove(page, r);
      turns++;
    }
    check(turns >= 5, "turns played: " + turns);
    check(fuller > 0, "no turn had three cards on the trick to check");
    check(!page.errors.length, "page errors: " + page.errors);
    await page.context().close();
  },

  async court1862() {
    // The 1862 form offers only what 1862 takes, so it can always be
    // sent; its table tells cards and court cards won, and its score
    // table says what each row counts.
    const page = await newPage({ width: 1280, height: 800 });
    await page.goto(base + "/");
    await page.click('[data-new-table="court-circular"]');
    const form = 'form[data-create="court-circular"]';
    await page.waitForSelector(form);
    check(await page.$(form + ' input[name="target"]'), "the 1860 form has a target");
    await page.fill(form + ' input[name="target"]', "20");
    await page.selectOption(form + ' select[name="edition"]', "1862");
    check(!(await page.$(form + ' input[name="target"]')), "the 1862 form offers a target");
    check(!(await page.$(form + ' input[name="players"]')), "the 1862 form offers a number of players");
    check((await page.$$(form + ' select[name^="seat"]')).length === 2, "1862 is for two players");
    await page.fill(form + ' input[name="name"]', "Tessa");
    await page.click(form + ' button[type="submit"]');
    await page.waitForSelector('.table-page[data-game="court-circular"][data-my-seat="0"][data-status="playing"]');
    const id = await page.evaluate(() => location.hash.split("/")[2]);
    const t = await api("GET", "/api/tables/" + id);
    check(t.options.edition === "1862" && t.options.target === undefined, "the table made: " + JSON.stringify(t.options));
    check(!(await page.$(".error")), "the form was refused");
    await myTurn(page);
    check(/cards won \d+ · court cards won \d+/.test(await page.textContent('[data-tally="0"]')), "the 1862 tally: " + (await page.textContent('[data-tally="0"]')));
    check((await page.textContent("[data-total-row] th")) === "Points toward the next Hit", "the 1862 total row reads " + (await page.textContent("[data-total-row] th")));
    check(/Hits/.test(await page.textContent("[data-extra-row] th")), "no Hits row");
    const r = rng(8);
    for (let i = 0; i < 10; i++) {
      if ((await myTurn(page)) !== "mine") break;
      check(((await page.textContent("[data-prompt]").catch(() => "")) || "").trim().length > 3, "no prompt on my turn: " + (await page.textContent(".turn")));
      await clickMove(page, r);
    }
    await shot(page, "court-1862-play", false);
    check(!page.errors.length, "page errors: " + page.errors);
    await page.context().close();
  },

  async invite() {
    // The invite link is copied with a click; a rematch tells the other
    // player who waits for them, and one click seats them.
    const t = await api("POST", "/api/tables", { game: "golf", options: { holes: 1, players: 2 }, seats: ["open", "open"], seed: 27 });
    const a = await newPage({ width: 1280, height: 800 }, { permissions: ["clipboard-read", "clipboard-write"] });
    const b = await newPage({ width: 1280, height: 800 });
    for (const [p, seat, name] of [[a, 0, "Ann"], [b, 1, "Ben"]]) {
      await p.goto(`${base}/#/t/${t.id}`);
      await p.fill(".join-box input", name);
      await p.click(`[data-join="${seat}"]`);
      await p.waitForSelector(`.table-page[data-my-seat="${seat}"]`);
    }
    await a.click("[data-copy-invite]");
    await a.waitForFunction(() => document.querySelector("[data-copy-invite]").textContent === "Copied");
    const copied = await a.evaluate(() => navigator.clipboard.readText());
    check(copied === `${base}/#/t/${t.id}`, "the copied invite: " + copied);
    // Both play the hole out.
    const r = rng(27);
    for (let n = 0; n < 300; n++) {
      const st = await a.$eval(".table-page", (e) => e.dataset.status);
      if (st === "over") break;
      const who = (await a.$('.turn[data-turn="mine"]')) ? a : (await b.$('.turn[data-turn="mine"]')) ? b : null;
      if (!who) { await a.waitForTimeout(50); continue; }
      await clickMove(who, r);
    }
    await a.waitForSelector("[data-over] [data-rematch]");
    await b.waitForSelector("[data-over]");
    await a.click("[data-rematch]");
    await a.waitForFunction((old) => !location.hash.includes(old), t.id);
    await b.waitForSelector("[data-rematch-invite]");
    await b.waitForFunction(() => /Ann started a rematch and is waiting for you/.test(document.querySelector("[data-rematch-invite]").textContent));
    await shot(b, "rematch-invite", false);
    await b.click("[data-join-rematch]");
    await b.waitForFunction((old) => !location.hash.includes(old), t.id);
    await b.waitForSelector('.table-page[data-my-seat="1"][data-status="playing"]');
    check((await a.evaluate(() => location.hash)) === (await b.evaluate(() => location.hash)), "the two are not at the same rematch");
    await a.waitForSelector('.table-page[data-status="playing"]');
    for (const p of [a, b]) { check(!p.errors.length, "page errors: " + p.errors); await p.context().close(); }
  },

  async ends() {
    // Each game's end of match, watched: the standings follow the game's
    // way of winning, Damn shows every card, the score table labels what
    // it counts; screenshots at both sizes in both themes. Damn's log
    // goes past 200 lines and keeps following.
    const games = (await api("GET", "/api/games"));
    const runs = [
      ["damn", { players: 3 }, ["random", "random", "random"]],
      ["golf", { holes: 2, players: 3 }, ["heuristic", "random", "easy"]],
      ["parcellus", { target: 12 }, ["random", "random", "random"]],
      ["tractric", {}, ["random", "random", "random"]],
      ["court-circular", { players: 3, target: 8 }, ["random", "random", "random"]],
      ["court-circular", { edition: "1862" }, ["random", "random"]],
    ];
    // All at once: the bots play them out while the first is watched.
    const ids = [];
    for (const [game, options, seats] of runs) ids.push((await api("POST", "/api/tables", { game, options, seats, seed: 41 })).id);
    for (let i = 0; i < runs.length; i++) {
      const [game, options] = runs[i];
      const info = games.find((g) => g.id === game);
      const page = await newPage({ width: 1280, height: 800 });
      if (game === "damn") {
        // The live log, watched from the start of a long game.
        await page.goto(`${base}/#/t/${ids[i]}`);
        await page.waitForFunction(() => Number(document.querySelector(".table-page")?.dataset.seq) > 230 || document.querySelector('.table-page[data-status="over"]'), null, { timeout: 90000 });
        check((await seq(page)) > 200 || (await api("GET", "/api/tables/" + ids[i])).moves > 200, "the Damn game was too short to fill the log");
        await page.waitForTimeout(300);
        const left = await page.$eval('[role="log"]', (e) => e.scrollHeight - e.clientHeight - e.scrollTop);
        check(left <= 2, `past 200 lines the log stopped following: ${left}px below`);
      }
      await watchOver(page, ids[i]);
      await page.waitForSelector("[data-standing]");
      const r = (await api("GET", "/api/tables/" + ids[i])).result;
      const order = await page.$$eval("[data-standing]", (es) => es.map((e) => Number(e.dataset.standing)));
      if (r.winners.length) check(r.winners.includes(order[0]), `${game}: the winner ${r.winners} is not first: ${order}`);
      const rest = order.filter((s) => !r.winners.includes(s)).map((s) => r.totals[s]);
      const lowWins = info.low_wins;
      check(rest.every((x, k) => k === 0 || (lowWins ? x >= rest[k - 1] : x <= rest[k - 1])), `${game}: the standings ${order} do not follow the totals ${r.totals} (lowest wins: ${lowWins})`);
      if (game === "damn") {
        const loser = order[order.length - 1];
        check(r.totals[loser] > 0, "the loser holds no cards");
        await page.waitForSelector(`[data-shown-hand="${loser}"]`);
        const shown = await page.$$eval(`.seat-box[data-seat="${loser}"] .card:not(.back):not(.empty)`, (es) => es.length);
        check(shown === r.totals[loser], `the loser holds ${r.totals[loser]} cards, ${shown} are shown`);
      }
      if (game === "tractric") check((await page.textContent("[data-total-row] th")) === "Games won", "Tractric's total row");
      const name = game + (options.edition ? "-" + options.edition : "") + "-over";
      await page.emulateMedia({ reducedMotion: "reduce" });
      for (const scheme of ["light", "dark"]) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const [size, vp] of [["desktop", { width: 1280, height: 800 }], ["phone", { width: 390, height: 844 }]]) {
          await page.setViewportSize(vp);
          await page.evaluate(() => window.scrollTo(0, 0));
          await shot(page, `${name}-${size}-${scheme}`, true);
        }
      }
      check(!page.errors.length, game + " page errors: " + page.errors);
      await page.context().close();
    }
  },
};

// ==== game analysis (web/src/analysis.tsx; ../shared/spec/analysis.md) ====
// A Golf hole played to its end; the summary's link asks for the analysis
// on the replay page, whose progress shows until it is done; then the
// chart, each move's label, and at a costly move the better move marked
// on the board. A hindsight analysis asked for next is labelled so.
tests.analysis = async function analysis() {
  const page = await newPage();
  const id = await sit(page, { game: "golf", options: { holes: 1, players: 2 }, seats: ["open", "random"], seed: 23 });
  const r = rng(23);
  for (let n = 0; ; n++) {
    if ((await myTurn(page)) === "over") break;
    await clickMove(page, r);
    check(n < 200, "the hole does not end");
  }
  await page.waitForSelector("[data-over] [data-analysis-link]");
  await page.click("[data-analysis-link]");
  await page.waitForSelector(".replay-page");
  // Asked for on coming: its progress shows, then the report.
  const seen = await page.waitForSelector('[data-analysis]:not([data-analysis="idle"])');
  const first = await seen.getAttribute("data-analysis");
  if (first !== "done") {
    await page.waitForSelector(".analysis-progress progress");
    await shot(page, "analysis-progress", false);
  }
  await page.waitForSelector('[data-analysis="done"]', { timeout: 120000 });
  const st = await api("GET", `/api/tables/${id}/analysis`);
  check(st.status === "done" && st.report && st.report.mode === "information", "the analysis as the API has it: " + JSON.stringify(st).slice(0, 200));
  const rep = st.report;
  const moves = (await api("GET", `/api/tables/${id}/replay`)).moves.length;
  // The chart: a line per seat, the step marked; a click goes to a move.
  const lines = await page.$$eval("[data-win-chart] [data-chart-seat] polyline", (es) => es.length);
  check(lines === 2, "the chart has a line per seat: " + lines);
  check(Number(await page.$eval("[data-chart-step]", (e) => e.dataset.chartStep)) === 0, "the chart marks step 0");
  const costly = rep.decisions.filter((d) => !d.forced && d.best && d.best !== d.move).sort((a, b) => b.loss - a.loss)[0];
  check(costly, "a random hole has a move the search would have played otherwise");
  const box = await (await page.$("[data-win-chart] svg")).boundingBox();
  const L = 36, R = 10; // the chart's margins (analysis.tsx), in its own pixels: the svg is drawn at its size
  await page.mouse.click(box.x + L + (costly.n / moves) * (box.width - L - R), box.y + box.height / 2);
  await page.waitForSelector(`.replay-page[data-step="${costly.n}"]`);
  check(Number(await page.$eval("[data-chart-step]", (e) => e.dataset.chartStep)) === costly.n, "the chart marks the step clicked");
  // The chosen step: the move played, its chance, the better move and its chance, drawn on the board.
  await page.waitForSelector(`[data-analysis-step="${costly.n}"] [data-better-text]`);
  const said = await page.textContent(`[data-analysis-step="${costly.n}"]`);
  const pct = (c) => Math.round(c * 100) + "%";
  check(said.includes(pct(costly.chance)) && said.includes(pct(costly.best_chance)) && said.includes(costly.label), "the step tells the chances and the label: " + said);
  const marked = await page.$$eval(".board [data-better-move]", (es) => es.map((e) => e.dataset.betterMove));
  check(marked.length > 0 && marked.every((m) => m === costly.best), `the better move ${costly.best} is marked on the board: ${marked}`);
  // Each move's label beside it, readable: its text against its pill.
  const labels = await page.$$eval(".moves [data-label]", (es) => es.map((e) => e.dataset.label));
  check(labels.length === rep.decisions.length, `a label beside each move analysed: ${labels.length} of ${rep.decisions.length}`);
  check(await page.$(`.moves li.current [data-label="${costly.label}"]`), "the chosen move's label in the list");
  const contrast = (pg) => pg.$$eval(".an-label:not(.an-forced)", (es) => es.map((e) => {
    const rgb = (c) => c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    const lum = (c) => { const [r, g, b] = rgb(c); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
    const s = getComputedStyle(e), a = lum(s.color), b = lum(s.backgroundColor);
    return { label: e.dataset.label, ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) };
  }));
  for (const c of await contrast(page)) check(c.ratio >= 4.5, `the label ${c.label} is hard to read: contrast ${c.ratio.toFixed(2)}`);
  await shot(page, "analysis-replay");
  // The same in the dark theme and on a phone.
  const dark = await newPage({ width: 1100, height: 900 }, { colorScheme: "dark" });
  await dark.goto(`${base}/#/replay/${id}/${costly.n}`);
  await dark.waitForSelector('[data-analysis="done"]');
  await dark.waitForSelector(".board [data-better-move]");
  for (const c of await contrast(dark)) check(c.ratio >= 4.5, `dark: the label ${c.label} is hard to read: contrast ${c.ratio.toFixed(2)}`);
  await shot(dark, "analysis-replay-dark");
  const phone = await newPage({ width: 390, height: 844 });
  await phone.goto(`${base}/#/replay/${id}/${costly.n}`);
  await phone.waitForSelector(".board [data-better-move]");
  check((await wider(phone, 390)).length === 0, "the analysis fits a phone: " + (await wider(phone, 390)));
  await shot(phone, "analysis-replay-phone");
  // A hindsight analysis, asked for next, is labelled so wherever shown.
  const h = await fetch(`${base}/api/tables/${id}/analysis`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ hindsight: true }) });
  check(h.status === 202 || h.status === 200, "hindsight asked for: " + h.status);
  await page.goto(`${base}/#/replay/${id}/${costly.n}`);
  await page.reload();
  await page.waitForSelector('[data-analysis="done"][data-mode="hindsight"]', { timeout: 120000 });
  await page.waitForSelector(`[data-analysis-step="${costly.n}"]`);
  for (const [sel, what] of [["[data-win-chart] figcaption", "the chart"], [`[data-analysis-step="${costly.n}"]`, "the step"], [".moves li.current", "the label"]]) {
    check(/hindsight/i.test(await page.textContent(sel)), what + " does not say hindsight");
  }
  await shot(page, "analysis-hindsight", false);
  for (const p of [page, dark, phone]) { check(!p.errors.length, "page errors: " + p.errors); await p.context().close(); }
};

// ==== the end of a deal (web/src/dealend.tsx; docs/protocol.md deal_end) ====
// A Golf hole played to its end: the finished layouts show, every card
// face up, with the hole's scores and how each was made (columns adding
// up to the score, the score table's row agreeing), until "Next hole"
// goes on to the next hole, which the server has dealt meanwhile. Then
// each game's end of a deal, watched: Parcellus's last parcel, Tractric's
// last trick, Court Circular's last trick. Screenshots of each.
tests.dealend = async function dealend() {
  const page = await newPage({ width: 1280, height: 800 });
  await sit(page, { game: "golf", options: { holes: 2, players: 2 }, seats: ["open", "random"], seed: 11 });
  const r = rng(11);
  const ended = async () => !!(await page.$("[data-deal-end]"));
  for (let n = 0; !(await ended()); n++) {
    check(n < 200, "the first hole does not end");
    const s = await myTurn(page, ended);
    check(s !== "over", "the match ended without showing the first hole's end");
    if (s === "mine") {
      // Click the move by hand here: clickMove would go on past the end.
      const moves = await page.$$('.board [data-move]:not([data-move=""])');
      if (!moves.length || (await ended())) continue;
      const before = await seq(page);
      await moves[Math.floor(r() * moves.length)].click().catch(() => {});
      await page.waitForFunction((b) => Number(document.querySelector(".table-page").dataset.seq) > b || document.querySelector("[data-deal-end]"), before).catch(() => {});
    }
  }
  await page.waitForSelector('[data-deal-end="1"]');
  check(/End of hole 1/.test(await page.textContent("#deal-end-title")), "the heading: " + (await page.textContent("#deal-end-title")));
  check(/^Next hole/.test((await page.textContent("[data-next-deal]")).trim()), "the button: " + (await page.textContent("[data-next-deal]")));
  // Every card of both layouts face up.
  const cells = await page.$$eval(".deal-end .golf-seat .golf-grid .card", (es) => es.map((e) => ({ back: e.classList.contains("back") || e.classList.contains("dim"), card: e.dataset.card || "" })));
  check(cells.length === 12, "the hole's end shows " + cells.length + " layout cards, not 12");
  check(cells.every((c) => !c.back), "a card lies face down at the hole's end: " + JSON.stringify(cells));
  // The hole's scores: in the panel, in the score table, and made of the columns.
  const scores = await page.$$eval("[data-deal-end-scores] .deal-end-score", (es) => es.map((e) => Number(e.textContent.trim().split(" ").pop())));
  const row = await page.$$eval('[data-deal-row="1"] td', (es) => es.map((e) => Number(e.textContent)));
  check(scores.length === 2 && scores.join() === row.join(), `the hole's scores ${scores}, the score table's row ${row}`);
  const how = await page.$$eval("[data-deal-end-how] li", (es) => es.map((e) => e.textContent));
  check(how.length === 2, "how the hole scored: " + how);
  how.forEach((l, s) => {
    const m = l.match(/columns (.+) = (-?\d+)$/);
    check(m, "a seat's columns: " + l);
    const sum = m[1].split(" + ").map((x) => Number(x.replace(/[()]/g, ""))).reduce((a, b) => a + b, 0);
    check(sum === Number(m[2]) && sum === scores[s], `the columns of "${l}" do not add up to the score ${scores[s]}`);
  });
  check(/You/.test(await page.textContent("[data-deal-end-scores]")), "the viewer is not named as you");
  // The seats say each one's points in the hole, not a move of the next.
  const chips = await page.$$eval("[data-deal-end-seat]", (es) => es.map((e) => e.textContent.trim()));
  check(chips.length === 2 && chips.every((c, s) => c === `Points: ${row[s]}`), "the seats at the hole's end: " + chips);
  check((await page.$$("[data-last-words]")).length === 0, "a seat shows a move of the next hole while the hole's end shows");
  // The turn line says the next hole has begun, not a prompt for a board
  // the hole's end covers.
  const turn = (await page.textContent(".turn")).trim();
  check(await page.$('.turn[data-turn-held="1"]'), "the turn line does not know the hole's end is held: " + turn);
  check(/^Hole 2 has begun/.test(turn) && !/column/i.test(turn), "the turn line at the hole's end: " + turn);
  if (await page.$('.turn[data-turn="mine"]')) check(/your turn\. Press Next hole when you are done with hole 1\./.test(turn), "the turn line on the viewer's turn: " + turn);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, "golf-deal-end-desktop");
  await page.setViewportSize({ width: 390, height: 844 });
  check((await wider(page, 390)).length === 0, "the hole's end does not fit a phone: " + (await wider(page, 390)));
  await shot(page, "golf-deal-end-phone");
  await page.setViewportSize({ width: 1280, height: 800 });
  // The next hole: dealt at the server already, shown once the player goes on.
  await page.click("[data-next-deal]");
  await page.waitForSelector("[data-deal-end]", { state: "detached" });
  const down = await page.$$eval(".board .golf-grid .card.back", (es) => es.length);
  check(down > 0, "after Next hole, the new hole's face-down cards do not show");
  check(!page.errors.length, "page errors: " + page.errors);
  await page.context().close();

  // Each game's end of a deal, watched as the bots play on.
  const runs = [
    ["parcellus", { target: 200 }, ["random", "random", "random"], async (p) => {
      const cards = await p.$$eval("[data-last-parcel] .card", (es) => es.length);
      check(cards > 0, "Parcellus's last parcel does not show");
    }],
    ["tractric", {}, ["random", "random", "random"], async (p) => {
      const cards = await p.$$eval('.deal-end .trick.done .card:not(.empty):not(.back)', (es) => es.length);
      check(cards === 3, `Tractric's last trick shows ${cards} cards, not 3`);
    }],
    ["court-circular", { players: 3, target: 300 }, ["random", "random", "random"], async (p) => {
      // Which deal's end the page sees first depends on how soon it
      // loads while the bots play at 20 ms, and a deal's last trick may
      // show only one or two cards (one deal in nine, in random play).
      const cards = await p.$$eval(".deal-end .board .cards .card:not(.empty):not(.back)", (es) => es.length);
      check(cards >= 1, "Court Circular's last trick does not show");
    }],
  ];
  for (const [game, options, seats, more] of runs) {
    const { id } = await api("POST", "/api/tables", { game, options, seats, seed: 5 });
    const p = await newPage({ width: 1280, height: 800 });
    await p.goto(`${base}/#/t/${id}`);
    await p.waitForSelector("[data-deal-end]", { timeout: 60000 });
    // Hold it: the count stops while the pointer rests on it.
    await p.hover("#deal-end-title");
    const deal = Number(await p.$eval("[data-deal-end]", (e) => e.dataset.dealEnd));
    const scores = await p.$$eval("[data-deal-end-scores] .deal-end-score", (es) => es.length);
    check(scores === seats.length, `${game}: ${scores} scores at the end of deal ${deal}`);
    const how = await p.$$eval("[data-deal-end-how] li", (es) => es.map((e) => e.textContent));
    check(how.length >= seats.length, `${game}: how the deal scored: ${how}`);
    await more(p);
    await p.evaluate(() => window.scrollTo(0, 0));
    await shot(p, `${game}-deal-end-desktop`);
    check(!p.errors.length, game + " page errors: " + p.errors);
    await p.context().close();
  }
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
