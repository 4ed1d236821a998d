"""Refresh the interface translations from the source code, then compile them.

Every user-visible string in ``qkv_desktop/`` goes through ``self.tr("…")`` or
``QCoreApplication.translate("Context", "…")`` (literal texts: lupdate reads the
source, it does not run it). This script

1. runs ``pyside6-lupdate -no-obsolete`` over every ``qkv_desktop/**/*.py`` into
   ``qkv_desktop/resources/translations/qkv_desktop_<lang>.ts``: new strings are
   added as ``type="unfinished"``, strings no longer in the code are dropped, and
   existing translations are kept;
2. runs ``pyside6-lrelease`` to compile each ``.ts`` into the ``.qm`` the app loads.

Run it from anywhere, after adding or changing user-visible strings::

    python resources/update_translations.py          # update the .ts, compile the .qm
    python resources/update_translations.py --check  # change nothing, list what is missing

then translate the new entries (Qt Linguist: ``pyside6-linguist <file>.ts``, or edit
the XML; keep ``{0}``-style placeholders and HTML tags as they are), and run it again
so the ``.qm`` has them. ``tests/test_i18n.py`` fails while any entry is unfinished or
any string of the code is missing from the ``.ts``. The script exits 1 when entries
are still unfinished, 0 when every string is translated.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "qkv_desktop"
TRANSLATIONS = PACKAGE / "resources" / "translations"
LANGUAGES = ("zh_CN",)
"""Languages besides English (the source language), one ``.ts``/``.qm`` pair each."""

LUPDATE_OPTIONS = ("-no-obsolete", "-locations", "none", "-source-language", "en")
"""No obsolete entries; no line numbers, so edits elsewhere in a file leave the .ts alone."""


def ts_path(lang: str) -> Path:
    return TRANSLATIONS / f"qkv_desktop_{lang}.ts"


def tool(name: str) -> str:
    """Path of ``pyside6-<name>``: beside this Python first (a venv), then on PATH."""
    exe = f"pyside6-{name}" + (".exe" if sys.platform == "win32" else "")
    here = Path(sys.executable).parent / exe
    found = str(here) if here.exists() else shutil.which(exe)
    if not found:
        raise SystemExit(f"update_translations: {exe} not found; install PySide6 "
                         "(pip install PySide6-Essentials) into this Python")
    return found


def sources() -> list[Path]:
    """Every Python file of the package, sorted (stable .ts order)."""
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


SOURCE_LANGUAGE = "en"
"""English needs a catalogue of plural forms only: ``tr("%n rows", "", n)`` is "1 row"
with it, "1 rows" without."""


def lupdate(ts: Path, lang: str) -> None:
    """Merge the strings of the package's sources into ``ts`` (created if missing)."""
    plurals = ("-pluralonly",) if lang == SOURCE_LANGUAGE else ()
    cmd = [tool("lupdate"), *LUPDATE_OPTIONS, *plurals, "-target-language", lang,
           *map(str, sources()), "-ts", str(ts)]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def lrelease(ts: Path) -> Path:
    """Compile ``ts`` into a new file put in place of the old ``.qm``. Not written over
    it: a running app maps its catalogue, and a catalogue rewritten in its file made
    that app's later texts English (a tester's window, during a translation update)."""
    qm = ts.with_suffix(".qm")
    new = qm.with_name(qm.name + ".new")
    subprocess.run([tool("lrelease"), str(ts), "-qm", str(new)], check=True,
                   stdout=subprocess.DEVNULL)
    new.replace(qm)
    return qm


def unfinished(ts: Path) -> list[tuple[str, str]]:
    """(context, source) of every entry without a finished translation."""
    out = []
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            forms = [f.text for f in translation.iter("numerusform")] if translation is not None \
                else []
            text = all(forms) if forms else (translation is not None and translation.text)
            if translation is None or translation.get("type") or not text:
                out.append((name, message.findtext("source") or ""))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing: update a temporary copy of each .ts and list "
                             "the entries it has without a translation")
    args = parser.parse_args(argv)
    TRANSLATIONS.mkdir(parents=True, exist_ok=True)
    missing = 0
    for lang in (SOURCE_LANGUAGE, *LANGUAGES):
        ts = ts_path(lang)
        if args.check:
            with tempfile.TemporaryDirectory() as tmp:
                copy = Path(tmp) / ts.name
                if ts.exists():
                    shutil.copyfile(ts, copy)
                lupdate(copy, lang)
                todo = unfinished(copy)
        else:
            lupdate(ts, lang)
            print(lrelease(ts).relative_to(ROOT))
            todo = unfinished(ts)
        missing += len(todo)
        for context, source in todo:
            print(f"{ts.name}: untranslated [{context}] {source!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
