// Each game's renderer, by game id: the one place a game joins the page
// (games/tables_test.go checks every registered game has one). The facts
// the game itself tells (the word for a deal, who wins, how seats pair up)
// come from GET /api/games: useGameInfo.
import { useEffect, useState } from "preact/hooks";
import { games, GameInfo } from "./api";
import type { Renderer } from "./board";
import { golf } from "./games/golf";
import { parcellus } from "./games/parcellus";
import { tractric } from "./games/tractric";
import { damn } from "./games/damn";
import { court } from "./games/court";

export const RENDERERS: Record<string, Renderer> = {
  golf,
  parcellus,
  tractric,
  damn,
  "court-circular": court,
};

// useGameInfo returns what GET /api/games tells of game id, once known.
export function useGameInfo(id: string): GameInfo | undefined {
  const [list, setList] = useState<GameInfo[] | null>(null);
  useEffect(() => {
    let stop = false;
    games().then((l) => { if (!stop) setList(l); }).catch(() => {});
    return () => { stop = true; };
  }, []);
  return list ? list.find((g) => g.id === id) : undefined;
}
