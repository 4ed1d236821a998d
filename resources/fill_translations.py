"""Fill unfinished entries of a ``.ts`` file from a JSON map of source → translation.

``python resources/fill_translations.py zh_CN new.json`` sets the translation of every
``type="unfinished"`` message whose source text is a key of ``new.json`` and marks it
finished (a ``%n`` message takes a list: its plural forms, one for Chinese, singular and
plural for English); then run ``resources/update_translations.py`` to compile the ``.qm``. A
small companion of that script for translating a batch of new strings by hand.
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from update_translations import ts_path  # noqa: E402


def fill(lang: str, table: dict[str, str]) -> list[str]:
    """Translate the unfinished messages of ``lang`` found in ``table``; the rest, listed."""
    path = ts_path(lang)
    raw = path.read_text(encoding="utf-8")
    header = raw[:raw.index("<TS")]  # the XML declaration and DOCTYPE, kept as they are
    tree = ET.ElementTree(ET.fromstring(raw))
    missing = []
    for message in tree.iter("message"):
        translation = message.find("translation")
        if translation is None or translation.get("type") != "unfinished":
            continue
        source = message.findtext("source")
        if source in table:
            value = table[source]
            if isinstance(value, list):  # a %n message: its forms (English: 1, then more)
                for form in list(translation):
                    translation.remove(form)
                for text in value:
                    ET.SubElement(translation, "numerusform").text = text
            else:
                translation.text = value
            del translation.attrib["type"]
        else:
            missing.append(source)
    ET.indent(tree, space="    ")
    path.write_text(header + ET.tostring(tree.getroot(), encoding="unicode") + "\n",
                    encoding="utf-8")
    return missing


if __name__ == "__main__":
    lang, table_file = sys.argv[1], sys.argv[2]
    left = fill(lang, json.loads(Path(table_file).read_text(encoding="utf-8")))
    for source in left:
        print(f"still unfinished: {source!r}")
    sys.exit(1 if left else 0)
