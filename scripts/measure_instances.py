#!/usr/bin/env python3
"""Many instances on one PostgreSQL, one killed mid-game.

Renders a bundled scenario with `referee synth`, reads the record `referee
replay` gives from it alone, starts a PostgreSQL server of its own
(`initdb` into a temporary folder, `postgres` on a free loopback port; as
the `postgres` user when run as root), starts `--instances` `referee serve`
processes on it, and streams the video to `--boards` boards at the video's
pace with `referee ingest`, each camera listing every instance (its board's
first choice dealt round them). After `--kill-after` seconds the first
instance is killed with SIGKILL; its cameras move to the others. At the end
it prints, for the boards, how many records equal replay's (moves and
incidents), how many more differ only in moves marked recovered, how many
more are short of moves with a `record_gap` raised for the arbiter, and the
others, silently wrong (listed), whether every move a camera was told of before the kill is in
its record, how long the moved cameras took to stream again, and how many
games the surviving instance lists.

    cargo build --release -p referee
    python3 scripts/measure_instances.py --boards 32 --instances 2

Standard library only.
"""

import argparse
import glob
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from measure_replay import right_or_marked

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def postgres_bin():
    for d in os.environ.get("PATH", "").split(os.pathsep):
        if os.path.isfile(os.path.join(d, "initdb")) and os.path.isfile(os.path.join(d, "postgres")):
            return d
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    if not found:
        sys.exit("measure_instances: PostgreSQL is not installed: run scripts/setup")
    return os.path.dirname(found[-1])


class Postgres:
    def __init__(self, scratch):
        bin_dir = postgres_bin()
        data = os.path.join(scratch, "pg")
        os.mkdir(data)
        demote = None
        if os.getuid() == 0:
            import pwd
            user = pwd.getpwnam("postgres")
            os.chmod(scratch, 0o755)
            os.chown(data, user.pw_uid, user.pw_gid)

            def demote():
                os.setgid(user.pw_gid)
                os.setuid(user.pw_uid)
        subprocess.run([os.path.join(bin_dir, "initdb"), "-D", data, "-U", "referee",
                        "--auth=trust", "--no-sync", "-E", "UTF8"],
                       check=True, stdout=subprocess.DEVNULL, preexec_fn=demote)
        self.port = free_port()
        self.process = subprocess.Popen(
            [os.path.join(bin_dir, "postgres"), "-D", data, "-p", str(self.port),
             "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
             "-c", "max_connections=300"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=demote)
        self.url = f"postgres://referee@127.0.0.1:{self.port}/postgres"
        deadline = time.time() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline:
                    sys.exit("measure_instances: postgres does not listen")
                time.sleep(0.05)
        time.sleep(0.5)

    def stop(self):
        self.process.send_signal(signal.SIGINT)
        self.process.wait(timeout=30)


def serve(referee, url, name):
    port = free_port()
    process = subprocess.Popen(
        [referee, "serve", "--db", url, "--grpc", f"127.0.0.1:{port}", "--instance", name],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    first = process.stdout.readline()
    if "serving gRPC" not in first:
        sys.exit(f"measure_instances: instance {name} did not start: {first}")
    threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
    return process, f"http://127.0.0.1:{port}"


def referee_json(referee, *args):
    out = subprocess.run([referee, *args], cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def record(verdict):
    return ([m["san"] for m in verdict["moves"]],
            [(i["kind"], i["article"]) for i in verdict["incidents"]])


def honest(verdict, reference):
    """Whether a record differs from the replay's only where it says so: at
    least as many moves, each the replay's at its place or marked recovered
    (a way nobody saw may have gone another way to the same board), and no
    incident the replay does not raise."""
    moves = verdict["moves"]
    return (len(moves) >= len(reference[0])
            and right_or_marked(moves, reference[0])
            and record(verdict)[1] == reference[1])


def gap_raised(verdict, reference):
    """Whether a record the arbiter is told to look at says where: each
    move the replay's or marked recovered, a `record_gap` raised (for the
    moves missing, or whose turn was not seen), and no other incident the
    replay does not raise."""
    moves = verdict["moves"]
    others = [i for i in record(verdict)[1] if i[0] != "record_gap"]
    return (right_or_marked(moves, reference[0])
            and len(others) < len(record(verdict)[1])
            and others == reference[1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=32)
    parser.add_argument("--instances", type=int, default=2)
    parser.add_argument("--scenario", default="game_maghsoodloo_vokhidov_2025")
    parser.add_argument("--plies", type=int, default=16,
                        help="the scenario's first plies only (0: all of it)")
    parser.add_argument("--kill-after", type=float, default=15.0,
                        help="seconds until the first instance is killed (0: never)")
    parser.add_argument("--referee", default=os.path.join(ROOT, "target/release/referee"))
    args = parser.parse_args()
    referee = os.path.abspath(args.referee)
    scratch = tempfile.mkdtemp(prefix="referee-instances-")
    try:
        run(args, referee, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def run(args, referee, scratch):
    scenario = os.path.join(ROOT, "tests/data/scenarios", args.scenario + ".scn")
    if args.plies:
        scenario = first_plies(scenario, args.plies, os.path.join(scratch, "cut.scn"))
    rendered = os.path.join(scratch, "render")
    subprocess.run([referee, "synth", scenario, "--out", rendered], cwd=ROOT, check=True,
                   capture_output=True)
    truth = json.load(open(os.path.join(rendered, "truth.json")))
    corners = ",".join(str(v) for p in truth["frames"][0]["corners"] for v in p)
    video = os.path.join(rendered, "video.avi")
    reference = record(referee_json(referee, "replay", video, "--corners", corners, "--json"))
    print(f"measure_instances: {args.scenario} ({args.plies or 'all'} plies), "
          f"{len(truth['frames'])} frames, replay reads "
          f"{len(reference[0])} moves and {len(reference[1])} incidents", flush=True)

    pg = Postgres(scratch)
    instances = [serve(referee, pg.url, f"i{k}") for k in range(args.instances)]
    urls = [url for _, url in instances]
    cameras = []
    for b in range(args.boards):
        first = b % len(urls)
        listed = ",".join(urls[first:] + urls[:first])
        process = subprocess.Popen(
            [referee, "ingest", "--server", listed, "--board", f"b{b}", "--corners", corners, video],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        cameras.append({"board": f"b{b}", "first": first, "process": process, "told": [],
                        "stderr": []})
    def read(camera):
        for line in camera["process"].stdout:
            m = re.search(r"refereed (\d+), left out (\d+) .* dropped (\d+)", line)
            if m:
                camera["frames"] = tuple(int(g) for g in m.groups())
            m = re.search(r" move (\d+) (\S+) ", line)
            if m:
                camera["told"].append((int(m.group(1)), m.group(2), time.time()))

    def read_err(camera):
        for line in camera["process"].stderr:
            camera["stderr"].append(line.rstrip())

    readers = []
    for camera in cameras:
        for target in (read, read_err):
            t = threading.Thread(target=target, args=(camera,), daemon=True)
            t.start()
            readers.append(t)
    started = time.time()
    killed_at = float("inf")
    if args.kill_after > 0:
        time.sleep(args.kill_after)
        victim, _ = instances[0]
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        killed_at = time.time()
        print(f"measure_instances: instance i0 killed with SIGKILL {killed_at - started:.1f} s in",
              flush=True)
    for camera in cameras:
        camera["rc"] = camera["process"].wait()
    for t in readers:
        t.join(timeout=5)

    survivor = urls[-1]
    for process, _ in instances[1:]:
        if process.poll() is not None:
            sys.exit("measure_instances: a surviving instance stopped")
    listed = referee_json(referee, "games", "--server", survivor, "--json")
    exact, marked_only, kept, failed, moved, differs = 0, 0, 0, [], [], []
    # By whether the board's first instance was the one killed.
    moved_exact, moved_count = [0, 0], [0, 0]
    gapped, silent = 0, []
    for camera in cameras:
        if camera["rc"] != 0:
            failed.append(f"{camera['board']}: {camera['stderr'][-1:] }")
            continue
        verdict = referee_json(referee, "game", f"{camera['board']}-1", "--server", survivor, "--json")
        got = record(verdict)
        exact += got == reference
        said = got != reference and honest(verdict, reference)
        gap = got != reference and gap_raised(verdict, reference)
        marked_only += said
        gapped += gap
        if got != reference and not said and not gap:
            silent.append(f"{camera['board']}: {[m['san'] + ('*' if m.get('recovered') else '') for m in verdict['moves']]} {got[1]}")
        moved_exact[camera["first"] == 0] += got == reference
        moved_count[camera["first"] == 0] += 1
        if got != reference and not differs:
            marked = [m["san"] + ("*" if m.get("recovered") else "") for m in verdict["moves"]]
            differs.append(f"{camera['board']}: {marked} {got[1]} (* recovered) where replay "
                           f"reads {reference}")
        told_before = [(ply, san) for ply, san, at in camera["told"] if at < killed_at]
        kept += all(ply <= len(got[0]) and got[0][ply - 1] == san for ply, san in told_before)
        for line in camera["stderr"]:
            m = re.search(r"streaming again on \S+, ([\d.]+) s after", line)
            if m:
                moved.append(float(m.group(1)))
    boards = len(cameras)
    frames = [c["frames"] for c in cameras if "frames" in c]
    refereed, paced, dropped = (sum(f[i] for f in frames) for i in range(3))
    print(f"measure_instances: {boards} boards on {args.instances} instances: {exact}/{boards} "
          f"records equal replay's, {marked_only} more differ only in moves marked recovered, "
          f"{gapped} more right or marked with a record_gap raised, {len(silent)} silently wrong, "
          f"{kept}/{boards} keep every move told before the kill, "
          f"{len(failed)} cameras gave up, {len(listed)} games listed by the survivor", flush=True)
    if args.kill_after > 0:
        print(f"measure_instances: exact: {moved_exact[True]}/{moved_count[True]} of the boards "
              f"whose instance was killed, {moved_exact[False]}/{moved_count[False]} of the others",
              flush=True)
    print(f"measure_instances: frames on the last connections: {refereed} refereed, {paced} "
          f"left out by the even rate, {dropped} dropped", flush=True)
    if moved:
        print(f"measure_instances: {len(moved)} cameras streamed again, median "
              f"{statistics.median(moved):.1f} s, at most {max(moved):.1f} s after their "
              f"connection broke", flush=True)
    for line in failed:
        print(f"  gave up: {line}")
    for line in differs:
        print(f"  the first record that differs: {line}")
    for line in silent:
        print(f"  silently wrong (* recovered): {line}")
    for process, _ in instances[1:]:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
    pg.stop()


def first_plies(scenario, plies, out):
    """The scenario up to its `plies`-th move and what follows it before the
    next move (its clock press), written to `out`."""
    kept, moves = [], 0
    for line in open(scenario):
        if line.startswith("move "):
            moves += 1
            if moves > plies:
                break
        kept.append(line)
    with open(out, "w") as f:
        f.writelines(kept)
    return out


if __name__ == "__main__":
    main()
