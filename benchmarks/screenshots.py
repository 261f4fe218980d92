"""Screenshots of what a person sees: the comparison report and a rulebook, at a laptop's width
(1,400 px) and a phone's (400 px), taken with headless Chromium (Debian's ``chromium``).

    python benchmarks/screenshots.py OUT [--report reports/comparison.html] [--ruleset bolivia-fr]

Writes ``OUT/report-1400.png``, ``OUT/report-400.png``, ``OUT/rulebook-1400.png`` and
``OUT/rulebook-400.png`` (and the rulebook's HTML beside them). The images are for looking at,
not for committing.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIDTHS = (1400, 400)


def shoot(page: Path, png: Path, width: int, height: int) -> None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        sys.exit("no chromium: apt-get install -y chromium")
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            f"--screenshot={png}",
            f"--window-size={width},{height}",
            page.resolve().as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    print(png)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--report", type=Path, default=ROOT / "reports" / "comparison.html")
    parser.add_argument("--ruleset", default="bolivia-fr")
    parser.add_argument("--height", type=int, default=2400)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    book = args.out / f"rulebook-{args.ruleset}.html"
    command = [sys.executable, "-m", "bolivia", "rulebook", args.ruleset, "--format=html"]
    subprocess.run(
        [*command, f"--out={book}"],
        check=True,
        cwd=ROOT,
    )
    for width in WIDTHS:
        shoot(args.report, args.out / f"report-{width}.png", width, args.height)
        shoot(book, args.out / f"rulebook-{width}.png", width, args.height)


if __name__ == "__main__":
    main()
