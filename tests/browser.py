"""Pages opened in a real browser, as a reader opens them: Debian's Chromium driven by
Playwright (never a downloaded browser), at a phone's width and a desktop's.

:func:`too_wide` lists what does not fit the screen on the page as it opens: the page itself
scrolling sideways, a table, figure, image, plot or preformatted block wider than the screen
or a box that scrolls sideways to show what it holds (a scrolling box around a table still
hides half of it), and text cut off by its box. Closed
``<details>`` are not laid out, so the details layer may be wider.

``BOLIVIA_SCREENSHOTS=DIR`` keeps a full-page screenshot of every page looked at, to open by eye.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

WIDTHS = (400, 1280)
CHROMIUM = os.environ.get("BOLIVIA_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"

# every element a reader sees as one block that must fit the screen, and text cut off
_MEASURE = """() => {
  const width = window.innerWidth;
  const found = [];
  const name = (e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
    + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '');
  const text = (e) => (e.innerText || e.textContent || '').trim().slice(0, 60);
  if (document.documentElement.scrollWidth > width + 1)
    found.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide`);
  for (const e of document.querySelectorAll('table, figure, img, svg, pre, .plot')) {
    if (e.closest('details:not([open])') || e.closest('svg') !== null && e.tagName !== 'svg')
      continue;
    const box = e.getBoundingClientRect();
    if (box.width > width + 1 || box.right > width + 1)
      found.push(`${name(e)} ${Math.round(box.width)} px wide at x=${Math.round(box.left)}: `
        + text(e));
  }
  // a box that scrolls sideways fits the screen but hides what it holds (a wide table)
  for (const e of document.querySelectorAll('body *')) {
    if (e.closest('details:not([open])') || e.tagName === 'PRE') continue;
    const style = getComputedStyle(e);
    if ((style.overflowX === 'auto' || style.overflowX === 'scroll')
        && e.scrollWidth > e.clientWidth + 1)
      found.push(`${name(e)} scrolls sideways: ${e.scrollWidth} px in ${e.clientWidth}: `
        + text(e));
  }
  const texts = 'td, th, p, li, dd, dt, h1, h2, h3, h4, a, code, span';
  for (const e of document.querySelectorAll(texts)) {
    if (e.closest('details:not([open])')) continue;
    const style = getComputedStyle(e);
    if ((style.overflowX === 'hidden' || style.textOverflow === 'ellipsis')
        && e.scrollWidth > e.clientWidth + 1)
      found.push(`${name(e)} cuts its text: ${text(e)}`);
  }
  return found;
}"""


def have_chromium() -> bool:
    return Path(CHROMIUM).exists()


@contextmanager
def chromium() -> Iterator[Any]:
    """A Chromium browser (the test is skipped where Playwright or Chromium is missing)."""
    if os.environ.get("BOLIVIA_NEED_BROWSER"):  # CI: a missing browser is a failure
        assert have_chromium(), f"no Chromium at {CHROMIUM} (apt-get install chromium)"
        from playwright import sync_api
    else:
        sync_api = pytest.importorskip("playwright.sync_api")
        if not have_chromium():
            pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as play:
        browser = play.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield browser
        finally:
            browser.close()


def too_wide(browser: Any, page_file: Path, width: int, shot: str = "") -> list[str]:
    """What does not fit a screen ``width`` px wide on the page as it opens."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    try:
        page.goto(page_file.resolve().as_uri())
        page.wait_for_load_state("load")
        found: list[str] = page.evaluate(_MEASURE)
        keep = os.environ.get("BOLIVIA_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            name = f"{shot or page_file.stem}-{width}.png"
            page.screenshot(path=str(Path(keep) / name), full_page=True)
        return found
    finally:
        page.close()


def pages_too_wide(browser: Any, page_files: Iterable[Path]) -> dict[str, list[str]]:
    """What does not fit, for every page at every width of :data:`WIDTHS`, by ``page at
    width``; empty when everything fits."""
    found = {}
    for path in page_files:
        for width in WIDTHS:
            wide = too_wide(browser, path, width)
            if wide:
                found[f"{path.stem} at {width}"] = wide
    return found
