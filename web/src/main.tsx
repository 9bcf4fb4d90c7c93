// Parlour's page: lobby API and protocol version 1 (docs/protocol.md).
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import { route } from "./router";
import { Lobby } from "./lobby";
import { TablePage } from "./table";
import { ReplayPage } from "./replay";
import { RulesPage, RULES_EVENT } from "./rules";
import { SettingsButton } from "./settings";
import { ICON, setFavicon } from "./turn";

setFavicon(ICON);

function App() {
  const [r, setR] = useState(route());
  useEffect(() => {
    const on = () => setR(route());
    window.addEventListener("hashchange", on);
    return () => window.removeEventListener("hashchange", on);
  }, []);
  let page;
  if (r[0] === "t" && r[1]) page = <TablePage id={r[1]} key={r[1]} />;
  else if (r[0] === "replay" && r[1]) page = <ReplayPage id={r[1]} step={r[2] !== undefined ? Number(r[2]) : undefined} key={r[1]} />;
  else if (r[0] === "rules" && r[1]) page = <RulesPage game={r[1]} />;
  else page = <Lobby />;
  return (
    <>
      <header>
        <a href="#/" class="brand"><span class="brand-mark" aria-hidden="true">♠</span>Parlour</a>
        <nav><a href="#/">Lobby</a> <a href="#/rules/golf" data-header-rules onClick={(e) => {
          // At a table, the rules open beside it (table.tsx listens).
          if (r[0] === "t") { e.preventDefault(); window.dispatchEvent(new CustomEvent(RULES_EVENT)); }
        }}>Rules</a></nav>
        <SettingsButton />
      </header>
      <main class={r[0] === "t" ? "wide" : ""}>{page}</main>
    </>
  );
}

render(<App />, document.getElementById("app")!);
