// The board of each game, by game id.
import type { FunctionComponent } from "preact";
import type { BoardProps } from "./board";
import { GolfBoard } from "./games/golf";
import { ParcellusBoard } from "./games/parcellus";
import { TractricBoard } from "./games/tractric";
import { DamnBoard } from "./games/damn";
import { CourtBoard } from "./games/court";

export const BOARDS: Record<string, FunctionComponent<BoardProps>> = {
  golf: GolfBoard,
  parcellus: ParcellusBoard,
  tractric: TractricBoard,
  damn: DamnBoard,
  "court-circular": CourtBoard,
};

// What a game calls a deal.
export const DEAL_WORD: Record<string, string> = {
  golf: "Hole", parcellus: "Deal", tractric: "Hand", damn: "Game", "court-circular": "Deal",
};
