"""Draw static/icon-192.png and static/icon-512.png from static/icon.svg with Chromium.

Run once after changing the icon: python scripts/make_icons.py
"""
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parents[1] / "static"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def main() -> None:
    svg = (STATIC / "icon.svg").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for size in (192, 512):
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f"<body style='margin:0'>{svg.replace('<svg ', f'<svg width={size} height={size} ', 1)}")
            page.screenshot(path=str(STATIC / f"icon-{size}.png"), omit_background=True)
        browser.close()


if __name__ == "__main__":
    main()
