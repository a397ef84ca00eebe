"""What a report says about the run itself: the package versions, the machine, the load on it, and
the commit of the meldsat source that ran."""

from __future__ import annotations

import os
import platform
import subprocess
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]


def versions(packages: Sequence[str]) -> dict[str, str]:
    """The Python version and that of each installed package (``not installed`` otherwise)."""
    found: dict[str, str] = {"python": platform.python_version()}
    for package in packages:
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = "not installed"
    return found


def machine() -> dict[str, str]:
    """The cores (``nproc``), the CPU model and the platform of this machine."""
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"nproc": str(os.cpu_count()), "cpu": model, "platform": platform.platform()}


def load_average() -> str:
    """The 1-minute load average, as the reports print it (the machine is shared)."""
    return f"{os.getloadavg()[0]:.2f}"


def source_state() -> str:
    """The commit of the meldsat checkout, and whether its working tree had changes."""
    try:
        head = subprocess.run(
            ["git", "-C", str(REPOSITORY), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "-C", str(REPOSITORY), "status", "--porcelain", "--", "solver", "cli"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"
    return f"commit {head}" + (" with uncommitted changes in solver/ or cli/" if changed else "")
