#!/usr/bin/env python3
"""An example bot for the Parlour bot protocol, version 1 (docs/bots.md).

Standard library only. Parlour writes one JSON object per line on standard
input; the bot answers one per line on standard output. This bot plays the
first legal move that is not a pass or a pick-up when it has one, and
otherwise the first legal move: a starting point for a real strategy.

    parlour tournament --game golf \\
        --engine py="python3 examples/bots/python/bot.py" --bots py,random,random,random
"""
import json
import sys

AVOID = ("pass", "pickup", "resign")


def choose(legal):
    for move in legal:
        if move not in AVOID:
            return move
    return legal[0]


def main():
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError as err:
            print("bot.py: not JSON:", err, file=sys.stderr)
            continue
        kind = msg.get("type")
        if kind == "start":
            print("bot.py: match", msg.get("match"), msg.get("game"), "seat", msg.get("seat"), file=sys.stderr)
            answer = {"type": "ready", "name": "bot.py"}
        elif kind == "act":
            answer = {"type": "move", "move": choose(msg["legal"])}
        elif kind == "quit":
            return
        else:
            continue  # "end", and anything newer: nothing to answer
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
