"""A course page from its text: the title, the paragraphs and headings, and the code blocks as
``<pre><code class="language-gradtrace">`` (what Markdown fences write), which ``/embed.js`` makes live.

The text is what a browser saves of a course page (server/course_texts/): the title on the first line, paragraphs
between blank lines, a code block after a ``Title·python`` line, then the page's navigation: the title again and the
headings, which tell the headings from the paragraphs.

Example::

    >>> page = course_page((COURSE_DIR / "backward-and-grad.txt").read_text())
    >>> page.title, len(page.blocks)
    ('.backward() and the .grad Buffer', 3)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from pathlib import Path

COURSE_DIR = Path(__file__).resolve().parent / "course_texts"
CODE_MARK = "·python"


@dataclass
class CoursePage:
    """A page's title, its parts as (kind, text) in order (kind: "h2", "p" or "code" with a caption), its code."""

    title: str
    parts: list[tuple[str, str, str]] = field(default_factory=list)

    @property
    def blocks(self) -> list[str]:
        return [text for kind, _, text in self.parts if kind == "code"]


def _paragraphs(lines: list[str]) -> list[str]:
    out, current = [], []
    for line in lines + [""]:
        if line.strip():
            current.append(line.strip())
        elif current:
            out.append(" ".join(current))
            current = []
    return out


def course_page(text: str) -> CoursePage:
    """Parse a course text (see the module docstring)."""
    lines = text.replace("\r\n", "\n").split("\n")
    title = lines[0].strip()
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == title), len(lines))
    headings = {line.strip() for line in lines[end + 1 :] if line.strip()}
    page = CoursePage(title)
    body = lines[1:end]
    i = 0
    prose: list[str] = []

    def flush() -> None:
        for para in _paragraphs(prose):
            page.parts.append(("h2" if para in headings else "p", "", para))
        prose.clear()

    while i < len(body):
        line = body[i]
        if line.strip().endswith(CODE_MARK):
            flush()
            caption = line.strip()[: -len(CODE_MARK)].strip()
            j = i + 1
            while j < len(body) and not body[j].strip().endswith(CODE_MARK):
                j += 1
            code = "\n".join(body[i + 1 : j]).strip("\n") + "\n"
            page.parts.append(("code", caption, code))
            i = j
            continue
        prose.append(line)
        i += 1
    flush()
    # a heading with nothing under it is the page's navigation ("Code" before the blocks is kept)
    return page


STYLE = """body { max-width: 820px; margin: 0 auto; padding: 16px 20px 60px; font: 16px/1.6 system-ui, sans-serif;
  color: #1f2937; background: #fff; }
@media (prefers-color-scheme: dark) { body { color: #e5e7eb; background: #0f1318; } a { color: #7aa2ff; } }
header nav { font-size: 14px; } figure { margin: 1.2em 0; } figcaption { font-weight: 600; margin-bottom: 4px; }
pre { overflow: auto; padding: 10px; border: 1px solid #cbd2dc; border-radius: 8px; }"""


def render(page: CoursePage, script: str = "/embed.js") -> str:
    """The page's HTML: its code blocks are ``language-gradtrace`` blocks, made live by ``script``."""
    out = [
        '<!doctype html><html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(page.title)} · gradtrace course</title><style>{STYLE}</style>",
        '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
        f'<script type="module" src="{escape(script)}"></script></head><body>',
        '<header><nav aria-label="gradtrace"><a href="/">gradtrace playground</a> · <a href="/help.html">help</a>',
        "</nav></header><main>",
        f"<h1>{escape(page.title)}</h1>",
    ]
    for kind, caption, text in page.parts:
        if kind == "code":
            out.append(
                f"<figure><figcaption>{escape(caption)}</figcaption>"
                f'<pre data-autorun data-seed="0"><code class="language-gradtrace">{escape(text)}</code></pre></figure>'
            )
        else:
            out.append(f"<{kind}>{escape(text)}</{kind}>")
    out.append("</main></body></html>")
    return "\n".join(out)


def find(name: str) -> Path | None:
    """The course text called ``name`` (letters, digits and dashes only), or None."""
    if not name or not all(c.isalnum() or c == "-" for c in name):
        return None
    path = COURSE_DIR / f"{name}.txt"
    return path if path.is_file() else None
