// A game's rules: the same text as `parlour rules GAME`.
import { useEffect, useState } from "preact/hooks";
import { games, GameInfo } from "./api";

export function RulesPage(p: { game: string }) {
  const [g, setG] = useState<GameInfo | null>(null);
  const [all, setAll] = useState<GameInfo[]>([]);
  const [error, setError] = useState("");
  useEffect(() => {
    games().then((list) => { setAll(list); setG(list.find((x) => x.id === p.game) || null); if (!list.find((x) => x.id === p.game)) setError("no game " + p.game); })
      .catch((e) => setError(e.message));
  }, [p.game]);
  return (
    <div class="rules-page">
      <nav class="rules-nav">{all.map((x) => <a href={"#/rules/" + x.id} class={x.id === p.game ? "chosen" : ""}>{x.name}</a>)}</nav>
      {error ? <p class="error">{error}</p> : null}
      {g ? (<><h2>{g.name}</h2><p>{g.summary}</p><pre class="rules" data-rules={g.id}>{g.rules}</pre></>) : null}
      <p><a href="#/">Back to the lobby</a></p>
    </div>
  );
}
