"""``puzzle generate``, ``simulate`` and ``replay`` on a Dask cluster: the bytes of one process."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import CliRunner

distributed = pytest.importorskip("distributed")


def test_the_batch_commands_on_a_cluster_print_what_one_process_prints(
    run_cli: CliRunner, tmp_path: Path
) -> None:
    puzzles = ["puzzle", "generate", "--count", "2", "--level", "easy", "--seed", "6"]
    games = ["simulate", "--games", "2", "--seed", "6", "--bots", "knocker,random"]
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        where = ["--scheduler", cluster.scheduler_address]
        on_cluster = [
            run_cli(*puzzles, *where),
            run_cli(*games, "--log", str(tmp_path / "cluster.jsonl"), *where),
            run_cli(
                "replay", str(tmp_path / "cluster.jsonl"), str(tmp_path / "cluster.jsonl"), *where
            ),
        ]
    alone = [
        run_cli(*puzzles, "--workers", "1"),
        run_cli(*games, "--log", str(tmp_path / "alone.jsonl"), "--workers", "1"),
        run_cli("replay", str(tmp_path / "cluster.jsonl"), str(tmp_path / "cluster.jsonl")),
    ]
    assert [(r.code, r.out, r.err) for r in on_cluster] == [(r.code, r.out, r.err) for r in alone]
    assert all(r.code == 0 for r in alone)
    log = (tmp_path / "cluster.jsonl").read_bytes()
    assert log == (tmp_path / "alone.jsonl").read_bytes()
