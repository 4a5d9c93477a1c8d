"""Writes scenario files of full games from public records
(tests/data/games/*.pgn) with their expected moves.

Each game is played the ordinary way with a clock press after every move,
seen by a camera whose pose and look vary with the game. The expected SAN
comes from the PGN itself (read with python-chess), not from the referee.

    python3 -m venv /tmp/chess-env && /tmp/chess-env/bin/pip install chess==1.11.2
    /tmp/chess-env/bin/python tests/data/scenarios/make_public_games.py
"""

import json
from pathlib import Path

import chess.pgn

HERE = Path(__file__).parent
GAMES = HERE.parent / "games"

# A camera for each game: seed, tilt, yaw, noise; 10 frames a second keeps
# the long videos quick to render and replay in tests.
CAMERAS = {
    "byrne_fischer_1956": "camera seed=56 fps=10 tilt=9 yaw=-3 noise=0.15",
    "kasparov_topalov_1999": "camera seed=99 fps=10 tilt=14 yaw=178 noise=0.1 blur=0.2",
    # Three 2025 games from The Week in Chess 1599 (as bundled with the
    # pgn-reader crate's benchmarks): en passant in two, a promotion and
    # White's queenside castling in the third.
    "maghsoodloo_vokhidov_2025": "camera seed=2025 fps=10 tilt=11 yaw=92 noise=0.2",
    "vokhidov_nepomniachtchi_2025": "camera seed=75 fps=10 tilt=6 yaw=-88 noise=0.1 light=0.7",
    "abdusattorov_praggnanandhaa_2025": "camera seed=98 fps=10 tilt=12 yaw=4 roll=2 noise=0.15",
}


def main():
    for pgn in sorted(GAMES.glob("*.pgn")):
        name = pgn.stem
        game = chess.pgn.read_game(pgn.open())
        assert not game.errors, (name, game.errors)
        lines = [f"# {game.headers['White']} - {game.headers['Black']}, {game.headers['Event']} {game.headers['Date']}"]
        for tag in ("Event", "Site", "Date", "White", "Black"):
            if tag in game.headers:
                lines.append(f"tag {tag} {game.headers[tag]}")
        lines.append(CAMERAS[name])
        board = game.board()
        sans = []
        for move in game.mainline_moves():
            sans.append(board.san(move))
            board.push(move)
            lines.append(f"move {move.uci()}")
            lines.append("clock")
        (HERE / f"game_{name}.scn").write_text("\n".join(lines) + "\n")
        (HERE / f"game_{name}.expected.json").write_text(json.dumps({"moves": sans, "incidents": []}) + "\n")
        print(f"game_{name}: {len(sans)} plies")


if __name__ == "__main__":
    main()
