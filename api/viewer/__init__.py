"""The replay viewer: pages served by the API itself (`pages.py`), their vendored script and style
sheet (`static/`), and each game's board drawn as SVG from a viewer's view (`boards/`).

Why server-drawn SVG: the board is drawn from the same redacted view the state API answers with, so
the page never holds more than the viewer may know, and `ringside show --svg` draws the same picture
without a browser.
"""
