"""The relationships of an Office package (OPC, ECMA-376 part 2): which parts a reader opens.

A package is a tree of parts joined by relationships (`_rels/.rels` for the package, then
`dir/_rels/name.rels` for each part). A reader follows some relationship types and never
opens the parts of the others (headers, pictures, charts, themes, custom XML). `Reading`
names the types each library follows for the text mediaparts makes, so that only those parts
are inflated; the relationships to the parts left out are dropped from the package the
library gets, since python-docx and python-pptx load every part a relationship names.
"""

from __future__ import annotations

import posixpath
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from xml.sax.saxutils import quoteattr

from mediaparts._errors import InvalidMedia

__all__ = ["ROOT", "Reading", "Relationship", "relationships", "rels_name", "rels_xml"]

ROOT = ""  # the package itself, as the source of `_rels/.rels`
_NS = "http://schemas.openxmlformats.org/package/2006/relationships"


@dataclass(frozen=True, slots=True)
class Reading:
    """What a library opens of a package.

    Attributes:
        follows: The relationship types (the last segment of their URI, which transitional
            and strict OOXML share) whose parts the library opens.
        streamed: Of those, the types whose parts it reads as a stream, keeping one row in
            memory, rather than as a whole tree (their elements are not counted).
    """

    follows: frozenset[str]
    streamed: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Relationship:
    """One `Relationship` element, with its target resolved to an entry name."""

    id: str
    type: str
    target: str  # as written
    external: bool
    part: str  # the entry it names (no leading slash); "" for an external target

    @property
    def kind(self) -> str:
        """The last segment of the type's URI (`styles`, `worksheet`, `officeDocument`)."""
        return self.type.rstrip("/").rsplit("/", 1)[-1]


def rels_name(part: str) -> str:
    """Return the entry holding a part's relationships (`word/_rels/document.xml.rels`)."""
    folder, base = posixpath.split(part)
    return posixpath.join(folder, "_rels", base + ".rels")


def relationships(member: bytes, source: str, name: str, media_type: str) -> list[Relationship]:
    """Parse a relationships part (already checked by `check_xml`: no DOCTYPE).

    Args:
        member: The part's bytes.
        source: The part whose relationships these are (`ROOT` for the package).
        name: The relationships part's entry name, for messages.
        media_type: For messages.

    Raises:
        InvalidMedia: The part is not XML.
    """
    try:
        root = ET.fromstring(member)  # check_xml refused any DOCTYPE
    except ET.ParseError as exc:
        raise InvalidMedia(
            f"the part {name!r} of this {media_type} is not XML ({exc})", media_type=media_type
        ) from exc
    folder = posixpath.dirname(source)
    found: list[Relationship] = []
    for element in root:
        if element.tag.rsplit("}", 1)[-1] != "Relationship":
            continue
        target = element.get("Target", "")
        external = element.get("TargetMode", "Internal") == "External"
        # As python-docx's PackURI.from_rel_ref and openpyxl's get_dependents resolve it.
        part = "" if external else posixpath.normpath(posixpath.join("/", folder, target))[1:]
        found.append(
            Relationship(element.get("Id", ""), element.get("Type", ""), target, external, part)
        )
    return found


def rels_xml(kept: list[Relationship]) -> bytes:
    """Write a relationships part holding `kept`, as a library expects to read it."""
    lines = [
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="{_NS}">'
    ]
    for rel in kept:
        mode = ' TargetMode="External"' if rel.external else ""
        lines.append(
            f"<Relationship Id={quoteattr(rel.id)} Type={quoteattr(rel.type)} "
            f"Target={quoteattr(rel.target)}{mode}/>"
        )
    lines.append("</Relationships>")
    return "".join(lines).encode("utf-8")
